# The TwixT Discord bot. Build:  docker build -t twixt-bot .
# Run:  docker run -d --name twixt --env-file .env -v twixt-data:/data twixt-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
# pyproject.toml names README.md as the package's readme, so it is part of the build.
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY rendering ./rendering
COPY storage ./storage
COPY bot ./bot
RUN pip install . && rm -rf /src

# A user without privileges owns only the data volume.
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin twixt \
    && mkdir -p /data && chown twixt:twixt /data
USER twixt
WORKDIR /data

ENV TWIXT_DB=/data/twixt.db
VOLUME ["/data"]

CMD ["twixt", "run"]
