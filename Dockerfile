# Parlor in a container: `docker build -t parlor .` then
#   docker run -e DISCORD_TOKEN=... -v parlor-data:/data parlor
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PARLOR_DB=/data/parlor.db

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install . \
    && useradd --create-home --uid 10001 parlor \
    && mkdir -p /data && chown parlor:parlor /data

USER parlor
VOLUME ["/data"]

# The token comes from the environment (DISCORD_TOKEN); configuration from PARLOR_CONFIG if mounted.
ENTRYPOINT ["parlor"]
CMD ["run"]
