"""Real gunicorn servers on 127.0.0.1 for the robustness tests (and bench/load.py)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).parent / "gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def migrate(database_url: str, instance: Path) -> None:
    """Bring the database to the newest schema, as `flask db upgrade` does on deploy."""
    app = create_app(
        {"SECRET_KEY": "migrate", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=instance,
    )
    with app.app_context():
        upgrade()
        db.session.remove()
        db.engine.dispose()


@dataclass
class Server:
    """One gunicorn (gunicorn.conf.py) in its own process group, so a kill takes it all."""

    database_url: str
    instance: Path
    secret_key: str = "shared-secret-for-tests"
    workers: int = 2
    port: int = field(default_factory=free_port)
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> Server:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": self.secret_key,
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": str(self.workers),
            # The folder where its workers share pages (gunicorn.conf.py) goes here, not
            # into the machine's /tmp, even when the test kills the server.
            "TMPDIR": str(self.instance),
            **self.env,
        }
        log = open(self.instance / f"gunicorn-{self.port}.log", "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [GUNICORN, "-c", str(ROOT / "gunicorn.conf.py"), "--chdir", str(ROOT)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log()}")
            try:
                if request(self.port, "GET", "/healthz")[0] == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer in {timeout} s: {self.log()}")
            time.sleep(0.05)

    def log(self) -> str:
        path = self.instance / f"gunicorn-{self.port}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def kill(self) -> None:
        """SIGKILL the master and its workers at once: no graceful anything."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 10.0,
) -> tuple[int, Any, dict[str, str]]:
    """One HTTP request to 127.0.0.1; (status, JSON body or text, headers)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        hdrs = dict(headers or {})
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=hdrs)
        response = conn.getresponse()
        raw = response.read()
        resp_headers = {k.lower(): v for k, v in response.getheaders()}
        if resp_headers.get("content-type", "").startswith("application/json"):
            return response.status, json.loads(raw), resp_headers
        return response.status, raw.decode(errors="replace"), resp_headers
    finally:
        conn.close()
