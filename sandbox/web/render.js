// Draws Discord's wire JSON (a message payload) as DOM, the way Discord's client shows it.
// Pure functions of the payload: content and embeds, classic components, Components V2 layouts,
// custom emojis (<:name:id> as <img> with the :name: as alt text), attachments, select menus.
"use strict";

const Render = (() => {
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;" })[c]);

  function emojiImg(id, name, animated) {
    return `<img class="emoji" src="/emojis/${esc(id)}" alt=":${esc(name)}:" title=":${esc(name)}:"` +
      ` data-emoji="${esc(name)}"${animated ? ' data-animated="1"' : ""}>`;
  }

  // Inline markdown on one escaped line: emojis, mentions, code, bold, italics, underline, strike.
  function inline(line, names) {
    const codes = [];
    line = line.replace(/`([^`]+)`/g, (_, c) => { codes.push(c); return `\u0000${codes.length - 1}\u0000`; });
    line = line.replace(/&lt;(a?):(\w+):(\d+)&gt;/g, (_, a, n, id) => emojiImg(id, n, a));
    line = line.replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${esc(names[id] || id)}</span>`);
    line = line.replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="mention">#${esc(names[id] || id)}</span>`);
    line = line.replace(/&lt;t:(\d+)(?::\w)?&gt;/g, (_, t) => esc(new Date(Number(t) * 1000).toLocaleString()));
    line = line.replace(/\*\*\*(.+?)\*\*\*/g, "<strong><em>$1</em></strong>");
    line = line.replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>");
    line = line.replace(/__(.+?)__/g, "<u>$1</u>");
    line = line.replace(/(^|[^\w*])\*([^*\s][^*]*?)\*(?!\w)/g, "$1<em>$2</em>");
    line = line.replace(/(^|\W)_([^_\s][^_]*?)_(?!\w)/g, "$1<em>$2</em>");
    line = line.replace(/~~(.+?)~~/g, "<s>$1</s>");
    line = line.replace(/\|\|(.+?)\|\|/g, '<span class="spoiler">$1</span>');
    line = line.replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noopener">$1</a>');
    return line.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${codes[Number(i)]}</code>`);
  }

  // Discord's markdown subset: headings (#, ##, ###), -# subtext, > quotes, ``` blocks, line breaks.
  function markdown(text, names) {
    const out = [];
    const parts = String(text || "").split("```");
    parts.forEach((part, i) => {
      if (i % 2 === 1) {
        out.push(`<pre>${esc(part.replace(/^\w*\n/, ""))}</pre>`);
        return;
      }
      const lines = esc(part).split("\n");
      lines.forEach((raw, j) => {
        let m;
        if ((m = raw.match(/^(#{1,3}) (.*)$/))) out.push(`<h${m[1].length}>${inline(m[2], names)}</h${m[1].length}>`);
        else if ((m = raw.match(/^-# (.*)$/))) out.push(`<div class="subtext">${inline(m[1], names)}</div>`);
        else if ((m = raw.match(/^&gt; (.*)$/))) out.push(`<blockquote>${inline(m[1], names)}</blockquote>`);
        else out.push(inline(raw, names) + (j < lines.length - 1 ? "<br>" : ""));
      });
    });
    return out.join("");
  }

  function textBlock(text, names) {
    const div = document.createElement("div");
    div.className = "text";
    div.innerHTML = markdown(text, names);
    if (/^\s*(<a?:\w+:\d+>\s*)+$/.test(text || "")) div.classList.add("big-emoji");
    return div;
  }

  function mediaUrl(url, files) {
    const m = /^attachment:\/\/(.+)$/.exec(url || "");
    return m ? (files[m[1]] || "") : url;
  }

  function emojiHtml(emoji) {
    if (!emoji) return "";
    return emoji.id ? emojiImg(emoji.id, emoji.name || "emoji", emoji.animated) : esc(emoji.name || "");
  }

  function button(c, ctx) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `s${c.style || 2}`;
    b.disabled = !!c.disabled;
    b.innerHTML = emojiHtml(c.emoji) + (c.label ? `<span>${esc(c.label)}</span>` : "");
    b.dataset.label = c.label || "";
    if (c.style === 5 && c.url) {
      b.dataset.url = c.url;
      b.addEventListener("click", () => window.open(c.url, "_blank", "noopener"));
    } else if (c.custom_id) {
      b.dataset.customId = c.custom_id;
      b.addEventListener("click", () => ctx.click(c.custom_id));
    }
    return b;
  }

  function select(c, ctx) {
    const wrap = document.createElement("div");
    wrap.className = "select";
    const s = document.createElement("select");
    s.dataset.customId = c.custom_id;
    s.disabled = !!c.disabled;
    const max = c.max_values || 1;
    if (max > 1) s.multiple = true;
    else s.innerHTML = `<option value="" disabled selected>${esc(c.placeholder || "Make a selection")}</option>`;
    for (const o of c.options || []) {
      const opt = document.createElement("option");
      opt.value = o.value;
      opt.textContent = (o.emoji && !o.emoji.id ? o.emoji.name + " " : "") + o.label +
        (o.description ? ` — ${o.description}` : "");
      opt.dataset.label = o.label;
      s.appendChild(opt);
    }
    wrap.appendChild(s);
    const send = () => ctx.select(c.custom_id, Array.from(s.selectedOptions).map((o) => o.value));
    if (max > 1) {
      const ok = document.createElement("button");
      ok.type = "button"; ok.className = "s1"; ok.textContent = "Choose";
      ok.dataset.selectSend = c.custom_id;
      ok.addEventListener("click", send);
      wrap.appendChild(ok);
    } else {
      s.addEventListener("change", send);
    }
    return wrap;
  }

  // Discord's CDN (avatars): the sandbox has no internet, so these are drawn as placeholders.
  const DISCORD_CDN = /^https:\/\/(cdn|media)\.discordapp\.(com|net)\//;

  // One component (classic or V2) as a DOM node.
  function component(c, ctx) {
    const el = (cls) => { const d = document.createElement("div"); d.className = cls; return d; };
    switch (c.type) {
      case 1: { const row = el("row"); (c.components || []).forEach((x) => row.appendChild(component(x, ctx)));
        return row; }
      case 2: return button(c, ctx);
      case 3: case 5: case 6: case 7: case 8: return select(c, ctx);
      case 9: { const sec = el("section"); const body = el("body");
        (c.components || []).forEach((x) => body.appendChild(component(x, ctx)));
        sec.appendChild(body);
        if (c.accessory) sec.appendChild(component(c.accessory, ctx));
        return sec; }
      case 10: return textBlock(c.content, ctx.names);
      case 11: { const t = el("thumbnail"); const url = (c.media && c.media.url) || "";
        if (DISCORD_CDN.test(url)) { // no internet here: a round placeholder with the name's initial
          const a = el("avatar"); a.textContent = (c.description || "?").trim().charAt(0).toUpperCase() || "?";
          a.title = c.description || ""; a.dataset.url = url; t.appendChild(a); return t; }
        const img = document.createElement("img");
        img.src = mediaUrl(url, ctx.files); img.alt = c.description || "";
        t.appendChild(img); return t; }
      case 12: { const g = el("gallery");
        for (const item of c.items || []) {
          const img = document.createElement("img");
          img.src = mediaUrl(item.media && item.media.url, ctx.files); img.alt = item.description || "";
          img.title = item.description || ""; g.appendChild(img);
        }
        return g; }
      case 13: { const f = el("file"); const url = mediaUrl(c.file && c.file.url, ctx.files);
        f.innerHTML = `📄 <a href="${esc(url)}" download>${esc((c.file && c.file.url || "").replace("attachment://", ""))}</a>`;
        return f; }
      case 14: { const hr = document.createElement("hr");
        hr.className = `separator${c.divider === false ? "" : " line"}${c.spacing === 2 ? " large" : ""}`;
        return hr; }
      case 17: { const box = el("container");
        if (c.accent_color != null) box.style.borderLeftColor = "#" + c.accent_color.toString(16).padStart(6, "0");
        box.dataset.accent = c.accent_color == null ? "" : String(c.accent_color);
        (c.components || []).forEach((x) => box.appendChild(component(x, ctx)));
        return box; }
      default: return el("unknown");
    }
  }

  function embed(e, names) {
    const box = document.createElement("div");
    box.className = "embed";
    if (e.color != null) box.style.borderLeftColor = "#" + e.color.toString(16).padStart(6, "0");
    let html = "";
    if (e.author && e.author.name) html += `<div class="author">${esc(e.author.name)}</div>`;
    if (e.title) html += `<div class="title">${inline(esc(e.title), names)}</div>`;
    if (e.description) html += `<div class="text">${markdown(e.description, names)}</div>`;
    if (e.fields && e.fields.length) {
      html += '<div class="fields">' + e.fields.map((f) => `<div class="field"><div class="name">` +
        `${inline(esc(f.name), names)}</div><div class="text">${markdown(f.value, names)}</div></div>`).join("") +
        "</div>";
    }
    if (e.image && e.image.url) html += `<img src="${esc(e.image.url)}" alt="">`;
    if (e.footer && e.footer.text) html += `<div class="footer">${esc(e.footer.text)}</div>`;
    box.innerHTML = html;
    return box;
  }

  // A whole message: ctx = {names: {id: name}, click(customId), select(customId, values)}.
  function message(m, ctx) {
    const files = m.files || {};
    ctx = Object.assign({}, ctx, { files });
    const div = document.createElement("div");
    div.className = "msg" + (m.ephemeral ? " ephemeral" : "");
    div.dataset.id = m.id;
    div.dataset.version = m.version;
    const head = document.createElement("div");
    head.className = "head";
    head.innerHTML = `${esc(m.author_name)}${m.author_bot ? '<span class="bot-tag">APP</span>' : ""}` +
      `<span class="meta">${m.edited_timestamp ? "(edited)" : ""}${m.ephemeral ? " Only you can see this" : ""}</span>`;
    div.appendChild(head);
    if (m.loading) {
      const l = document.createElement("div"); l.className = "loading"; l.textContent = "Parlor is thinking…";
      div.appendChild(l);
    }
    if (m.content) div.appendChild(textBlock(m.content, ctx.names));
    for (const e of m.embeds || []) div.appendChild(embed(e, ctx.names));
    for (const c of m.components || []) div.appendChild(component(c, ctx));
    const shown = new Set();
    JSON.stringify(m.components || []).replace(/attachment:\/\/([^"]+)/g, (_, n) => shown.add(n));
    for (const a of m.attachments || []) {
      if (shown.has(a.filename)) continue;
      const box = document.createElement("div");
      const url = files[a.filename] || a.url;
      box.dataset.filename = a.filename;
      if ((a.content_type || "").startsWith("image/")) {
        box.className = "attachment";
        box.innerHTML = `<img src="${esc(url)}" alt="${esc(a.description || a.filename)}">`;
      } else {
        box.className = "attachment file";
        box.innerHTML = `📄 <a href="${esc(url)}" download="${esc(a.filename)}">${esc(a.filename)}</a>` +
          ` <span class="meta">${a.size} bytes</span>`;
      }
      div.appendChild(box);
    }
    return div;
  }

  return { message, markdown, esc };
})();
