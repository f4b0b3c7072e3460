# The TwixT Discord bot. Build:  docker build -t twixt-bot .
# Run:  docker run -d --name twixt --env-file .env -v twixt-data:/data twixt-bot

# The builder: a C compiler builds the project's wheel with the engine's compiled core
# (twixt/engine/_core.c, see setup.py); the image gets the wheel, and no compiler.
FROM python:3.11-slim AS builder
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Everything .dockerignore lets through: the package `twixt`, setup.py, pyproject.toml and README.md
# (the package's readme, so part of the build). What goes in is said there only, so a new
# package cannot be left out (tests/test_docker_context.py builds and installs this context).
COPY . .
# The wheel, and beside it the names of the context's packages for the image's check.
RUN pip wheel --no-deps --wheel-dir /wheels . \
    && python -c "import pathlib; print(*sorted(init.parent.name for init in \
pathlib.Path('/src').glob('*/__init__.py')))" > /wheels/packages

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Names in any script. Latin, Greek, Cyrillic, symbols and "fancy" letters come with the
# package; from Debian come Noto Sans CJK (Chinese, Japanese, Korean), Noto Color Emoji and
# fonts-noto-core's Noto Sans of each further script (Devanagari, Thai, Bengali, Tamil, ...),
# of which only the regular sans faces are kept (about 50 MB in all). FriBiDi lets Pillow
# shape text with its bundled libraqm: emoji sequences and flags, Indic scripts, Arabic.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        fonts-noto-cjk fonts-noto-color-emoji fonts-noto-core libfribidi0 \
    && rm -rf /var/lib/apt/lists/* \
    && find /usr/share/fonts/opentype/noto -type f ! -name 'NotoSansCJK-Regular.ttc' -delete \
    && find /usr/share/fonts/truetype/noto -type f ! -name 'NotoSans?*-Regular.ttf' \
        ! -name 'NotoColorEmoji.ttf' -delete

COPY --from=builder /wheels /wheels
# Every module of every package in the context must import from the installed package (run
# from /), so a package that pyproject.toml leaves out fails the build; the engine must search
# with its compiled core; then the installed package must find its fonts and Debian's, and
# Pillow must shape with libraqm.
RUN pip install /wheels/*.whl && cd / \
    && python -c "import importlib, pkgutil; \
names = open('/wheels/packages').read().split(); \
modules = [module.name for name in names for module in pkgutil.walk_packages( \
           importlib.import_module(name).__path__, name + '.')]; \
[importlib.import_module(module) for module in modules]; \
print(len(modules), 'modules of', *names, 'import')" \
    && rm -rf /wheels \
    && python -c "from twixt import engine; assert engine.CORE == 'compiled', engine.DESCRIPTION; \
print(engine.DESCRIPTION)" \
    && python -c "from twixt.rendering.fonts import pieces; from PIL import features; \
faces = {face.name for text in ('José 24×24', '山田', '🎲', 'राहुल') \
         for face, _ in pieces(text)}; \
assert faces == {'Noto Sans', 'Noto Sans CJK JP', 'Noto Color Emoji', \
                 'NotoSansDevanagari'}, faces; \
assert features.check('raqm'); \
from twixt.language import translation; assert translation('de')('Draw') == 'Remis'"

# A user without privileges owns only the data volume.
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin twixt \
    && mkdir -p /data && chown twixt:twixt /data
USER twixt
WORKDIR /data

ENV TWIXT_DB=/data/twixt.db
VOLUME ["/data"]
# the web board, when TWIXT_WEB_PORT asks for it (compose.yaml: behind Caddy)
EXPOSE 8080

CMD ["twixt", "run"]
