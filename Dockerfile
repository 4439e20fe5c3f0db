# Parlor in a container: `docker build -t parlor .` then
#   docker run -e DISCORD_TOKEN=... -v parlor-data:/data parlor
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PARLOR_DB=/data/parlor.db \
    PARLOR_HEARTBEAT_FILE=/tmp/parlor-heartbeat

WORKDIR /app
# The runtime dependencies are pinned by requirements.lock (pip constraints), so an image built
# later gets the same libraries; only the bot and its cogs go in (no tests, no sandbox).
COPY pyproject.toml README.md requirements.lock ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --constraint requirements.lock . \
    && useradd --create-home --uid 10001 parlor \
    && mkdir -p /data && chown parlor:parlor /data

USER parlor
VOLUME ["/data"]

# Healthy while the bot is connected to Discord: it touches $PARLOR_HEARTBEAT_FILE every 30 s and
# `parlor health` checks that the file is fresh.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["parlor", "health"]

# The token comes from the environment (DISCORD_TOKEN); configuration from PARLOR_CONFIG if mounted.
ENTRYPOINT ["parlor"]
CMD ["run"]
