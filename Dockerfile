# The TwixT Discord bot. Build:  docker build -t twixt-bot .
# Run:  docker run -d --name twixt --env-file .env -v twixt-data:/data twixt-bot
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

WORKDIR /src
# Everything .dockerignore lets through: the packages, pyproject.toml and README.md (the
# package's readme, so part of the build). What goes in is said there only, so a new package
# cannot be left out (tests/test_docker_context.py builds and installs this context).
COPY . .
# Every module of every package in the context must import from the installed package (run
# from /, not /src), so a package that pyproject.toml leaves out fails the build; then the
# installed package must find its fonts and Debian's, and Pillow must shape with libraqm.
RUN pip install . && cd / \
    && python -c "import importlib, pathlib, pkgutil; \
names = sorted(init.parent.name for init in pathlib.Path('/src').glob('*/__init__.py')); \
modules = [module.name for name in names for module in pkgutil.walk_packages( \
           importlib.import_module(name).__path__, name + '.')]; \
[importlib.import_module(module) for module in modules]; \
print(len(modules), 'modules of', *names, 'import')" \
    && rm -rf /src \
    && python -c "from rendering.fonts import pieces; from PIL import features; \
faces = {face.name for text in ('José 24×24', '山田', '🎲', 'राहुल') \
         for face, _ in pieces(text)}; \
assert faces == {'Noto Sans', 'Noto Sans CJK JP', 'Noto Color Emoji', \
                 'NotoSansDevanagari'}, faces; \
assert features.check('raqm'); \
from language import translation; assert translation('de')('Draw') == 'Remis'"

# A user without privileges owns only the data volume.
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin twixt \
    && mkdir -p /data && chown twixt:twixt /data
USER twixt
WORKDIR /data

ENV TWIXT_DB=/data/twixt.db
VOLUME ["/data"]

CMD ["twixt", "run"]
