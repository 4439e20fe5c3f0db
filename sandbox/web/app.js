// The page: two panes, each one member in one channel, kept current over a WebSocket.
"use strict";

let world = { channels: [], members: [], commands: [] };
const panes = [];

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function names() {
  const out = {};
  world.members.forEach((m) => { out[m.id] = m.name; });
  world.channels.forEach((c) => { out[c.id] = c.name; });
  return out;
}

function showModal(pane, answer) {
  const box = document.getElementById("modal");
  const form = box.querySelector("form");
  form.querySelector("h3").textContent = answer.modal.title || "";
  const inputs = form.querySelector(".inputs");
  inputs.innerHTML = "";
  const walk = (cs) => cs.forEach((c) => {
    if (c.type === 4) {
      const label = document.createElement("label");
      label.textContent = c.label || c.custom_id;
      const input = document.createElement(c.style === 2 ? "textarea" : "input");
      input.name = c.custom_id; input.value = c.value || ""; input.placeholder = c.placeholder || "";
      label.appendChild(input); inputs.appendChild(label);
    } else if (c.type === 18 && c.component) walk([Object.assign({ label: c.label }, c.component)]);
    walk(c.components || []);
  });
  walk(answer.modal.components || []);
  box.hidden = false;
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const values = {};
    inputs.querySelectorAll("input,textarea").forEach((i) => { values[i.name] = i.value; });
    box.hidden = true;
    await pane.act(() => post("/api/modal", { user: pane.user, interaction: answer.interaction, values }));
  };
  form.querySelector(".cancel").onclick = () => { box.hidden = true; };
}

class Pane {
  constructor(index, user) {
    this.index = index;
    this.user = user;
    this.channel = null;
    this.order = [];
    this.messages = new Map();
    const node = document.getElementById("pane-template").content.firstElementChild.cloneNode(true);
    node.dataset.pane = index;
    document.getElementById("panes").appendChild(node);
    this.node = node;
    this.q = (sel) => node.querySelector(sel);
    this.q(".user-select").addEventListener("change", (e) => { this.user = e.target.value; this.watch(); });
    this.setupComposer();
    this.connect();
  }

  connect() {
    this.ws = new WebSocket(`ws://${location.host}/ws`);
    this.ws.onopen = () => this.watch();
    this.ws.onmessage = (ev) => this.receive(JSON.parse(ev.data));
    this.ws.onclose = () => { this.status("disconnected: restart the sandbox and reload"); };
  }

  watch() {
    if (this.ws.readyState === 1 && this.user && this.channel) {
      this.ws.send(JSON.stringify({ user: this.user, channel: this.channel }));
    }
    this.node.dataset.user = this.user || "";
    this.node.dataset.channel = this.channel || "";
  }

  receive(frame) {
    if (frame.type === "world") {
      world = frame;
      panes.forEach((p) => p.drawWorld());
      drawMembers();
      return;
    }
    if (frame.channel !== this.channel) return;
    for (const id of frame.delete) this.messages.delete(id);
    for (const m of frame.upsert) this.messages.set(m.id, m);
    this.order = frame.order;
    this.drawMessages(frame.upsert.map((m) => m.id));
  }

  drawWorld() {
    document.getElementById("guild-name").textContent = world.guild;
    const sel = this.q(".user-select");
    sel.innerHTML = "";
    for (const m of world.members) {
      const o = document.createElement("option");
      o.value = m.id; o.textContent = m.name + (m.manage_guild ? " (Manage Server)" : "");
      sel.appendChild(o);
    }
    if (!this.user || !world.members.some((m) => m.id === this.user)) {
      this.user = (world.members[this.index] || world.members[0]).id;
    }
    sel.value = this.user;
    if (!this.channel || !world.channels.some((c) => c.id === this.channel)) this.channel = world.channels[0].id;
    const ul = this.q(".channels");
    ul.innerHTML = "";
    for (const c of world.channels) {
      const li = document.createElement("li");
      li.textContent = (c.thread ? "🧵 " : "# ") + c.name;
      li.className = (c.thread ? "thread" : "") + (c.id === this.channel ? " active" : "");
      li.dataset.id = c.id; li.dataset.name = c.name;
      li.addEventListener("click", () => this.open(c.id));
      ul.appendChild(li);
    }
    const ch = world.channels.find((c) => c.id === this.channel);
    this.q(".channel-title").textContent = (ch.thread ? "🧵 " : "# ") + ch.name;
    this.watch();
  }

  open(channelId) {
    this.channel = channelId;
    this.messages.clear();
    this.order = [];
    this.drawWorld();
    this.drawMessages([]);
  }

  drawMessages(changed) {
    const box = this.q(".messages");
    const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    const ctx = {
      names: names(),
      click: (customId) => null,
      select: (customId, values) => null,
    };
    const existing = new Map(Array.from(box.children).map((el) => [el.dataset.id, el]));
    const changedSet = new Set(changed);
    let prev = null;
    for (const id of this.order) {
      const m = this.messages.get(id);
      if (!m) continue;
      let el = existing.get(id);
      if (!el || changedSet.has(id)) {
        const fresh = Render.message(m, Object.assign({}, ctx, {
          click: (customId) => this.act(() => post("/api/click", { user: this.user, message: id, custom_id: customId })),
          select: (customId, values) => this.act(() => post("/api/select",
            { user: this.user, message: id, custom_id: customId, values })),
        }));
        if (el) el.replaceWith(fresh);
        el = fresh;
      }
      existing.delete(id);
      if (prev ? prev.nextSibling !== el : box.firstChild !== el) box.insertBefore(el, prev ? prev.nextSibling : box.firstChild);
      prev = el;
    }
    existing.forEach((el) => el.remove());
    if (atBottom || changed.length) box.scrollTop = box.scrollHeight;
    box.dataset.count = String(this.order.length);
  }

  status(text) {
    this.q(".status").textContent = text;
  }

  async act(fn) {
    this.status("");
    try {
      const answer = await fn();
      if (answer.failed) this.status("This interaction failed: " + answer.errors.join("; "));
      if (answer.modal) showModal(this, answer);
      return answer;
    } catch (e) {
      this.status(e.message);
      return null;
    }
  }

  setupComposer() {
    const input = this.q(".command");
    const list = this.q(".suggestions");
    let active = -1, seq = 0;
    const choose = (s) => { input.value = s.text; list.innerHTML = ""; input.focus(); refresh(); };
    const refresh = async () => {
      const text = input.value;
      if (!text.startsWith("/")) { list.innerHTML = ""; return; }
      const mine = ++seq;
      let got;
      try { got = await post("/api/suggest", { user: this.user, channel: this.channel, text }); } catch (e) { return; }
      if (mine !== seq) return;
      list.innerHTML = ""; active = -1;
      for (const s of got.suggestions) {
        const li = document.createElement("li");
        li.textContent = s.label; li.dataset.text = s.text;
        li.addEventListener("mousedown", (ev) => { ev.preventDefault(); choose(s); });
        list.appendChild(li);
      }
    };
    input.addEventListener("input", refresh);
    input.addEventListener("focus", refresh);
    input.addEventListener("blur", () => { list.innerHTML = ""; });
    input.addEventListener("keydown", (ev) => {
      const items = Array.from(list.children);
      if (ev.key === "Tab" && items.length) {
        ev.preventDefault();
        choose({ text: items[Math.max(active, 0)].dataset.text });
      } else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        if (!items.length) return;
        ev.preventDefault();
        active = (active + (ev.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
        items.forEach((li, i) => li.classList.toggle("active", i === active));
      } else if (ev.key === "Enter" && active >= 0 && items[active]) {
        ev.preventDefault();
        choose({ text: items[active].dataset.text });
      }
    });
    this.q(".composer").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      list.innerHTML = "";
      const path = text.startsWith("/") ? "/api/slash" : "/api/say";
      const answer = await this.act(() => post(path, { user: this.user, channel: this.channel, text }));
      if (answer) input.value = "";
      this.node.dataset.sent = String(Number(this.node.dataset.sent || 0) + 1);
    });
  }
}

function drawMembers() {
  const body = document.querySelector("#members tbody");
  body.innerHTML = "";
  for (const m of world.members) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${Render.esc(m.name)}${m.owner ? " (owner)" : ""}</td><td><input type="checkbox"></td>`;
    const box = tr.querySelector("input");
    box.checked = m.manage_guild; box.disabled = m.owner; box.dataset.member = m.name;
    box.addEventListener("change", () => post("/api/member", { user: m.id, manage_guild: box.checked }));
    body.appendChild(tr);
  }
}

document.getElementById("add-member").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = ev.target.elements.name;
  try { await post("/api/member", { name: input.value }); input.value = ""; } catch (e) { alert(e.message); }
});

panes.push(new Pane(0, null), new Pane(1, null));
