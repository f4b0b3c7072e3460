"""`compose.yaml` runs what docs/deployment.md says: PostgreSQL and bot
processes that together run every shard once, all on that PostgreSQL. (No YAML parser is a
dependency; the file's settings are plain `KEY: value` lines.)"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

COMPOSE = (Path(__file__).resolve().parents[1] / "compose.yaml").read_text(encoding="utf-8")


def _settings(key: str) -> list[str]:
    return [value.strip('"') for value in re.findall(rf"^\s+{key}: (\S+)$", COMPOSE, re.M)]


def test_the_bot_processes_run_every_shard_once_over_postgresql():
    counts = {int(count) for count in _settings("TWIXT_SHARD_COUNT")}
    ids = sorted(int(shard) for shard in _settings("TWIXT_SHARD_IDS"))
    assert counts == {2} and ids == [0, 1]
    databases = _settings("TWIXT_DB")
    assert len(databases) == 2 and all(db.startswith("postgresql://") for db in databases)
    assert re.search(r"^\s+image: postgres:\d+", COMPOSE, re.M)


def test_the_bots_are_stopped_with_sigterm_and_time_to_close():
    # `twixt run` closes on SIGTERM (tests/discord/test_stop.py) within a few seconds
    # (benchmarks/stop_bench.py); the grace period is what Compose waits before it kills
    assert _settings("stop_signal") == ["SIGTERM"]
    assert _settings("stop_grace_period") == ["10s"]


CADDYFILE = (Path(__file__).resolve().parents[1] / "Caddyfile").read_text(encoding="utf-8")


def test_caddy_serves_the_web_board_of_bot_0_with_automatic_tls():
    # bot-0 alone serves the web board, inside the network; Caddy alone is open to the world
    assert _settings("TWIXT_WEB_PORT") == ["8080"]
    assert _settings("TWIXT_WEB_HOST") == ["0.0.0.0"]
    assert re.search(r"^\s+image: caddy:2$", COMPOSE, re.M)
    assert re.findall(r'^\s+- "(\d+):\d+(?:/udp)?"$', COMPOSE, re.M) == ["80", "443", "443"]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in COMPOSE
    # a site address (not :80 or http://) is what makes Caddy get and renew a certificate
    assert re.search(r"^\{\$TWIXT_WEB_DOMAIN\} \{$", CADDYFILE, re.M)
    assert re.search(r"^\s+reverse_proxy bot-0:8080 \{$", CADDYFILE, re.M)
    assert re.search(r"^\s+flush_interval -1$", CADDYFILE, re.M)  # live pages at once


def test_the_web_board_trusts_caddys_forwarded_address_and_no_other():
    # rate limits key on X-Forwarded-For only from Caddy, which sets it (docs/web.md);
    # Caddy sits at a fixed address of a network of its own with the board
    trusted = _settings("TWIXT_WEB_TRUSTED_PROXIES")
    assert trusted == _settings("ipv4_address") and len(trusted) == 1
    subnet = ipaddress.ip_network(re.findall(r"^\s+- subnet: (\S+)$", COMPOSE, re.M)[0])
    assert ipaddress.ip_address(trusted[0]) in subnet
