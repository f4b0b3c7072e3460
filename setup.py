"""The compiled core of the engine's search (twixt/engine/_core.c), built when a C compiler and
Python's headers are there; without them the build goes on (`optional`) and the engine
searches in Python (twixt/engine/core.py says which). The project's metadata is in
pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("twixt.engine._core", ["twixt/engine/_core.c"], optional=True)])
