"""schemathesis over every operation of the JSON API, on a live server, as three clients.

    .venv/bin/python bench/schema.py [--port 5851] [--max-examples 30] [--as scorer] [--json]

Serves a temporary SQLite database on 127.0.0.1 (werkzeug's threaded server, the app as
``bin/serve`` builds it, the quotas raised so that the run is not refused 429 for
setting up many games) holding a circle and a game of that circle, then runs
``schemathesis run`` on ``/api/v1/openapi.json`` with every phase (examples, coverage,
fuzzing, stateful: the document's links chain the operations) and every check, once for
each client (``bench/schema_hooks.py``):

- stranger: no token;
- scorer: each game's own scorer token (of the game set up here, and of every game the
  run sets up itself);
- circle: the circle's token on every request.

Prints each run's failures (by kind) and the time it took; with --json the last line is
one JSON object. Target: 0 failures in each. The whole output of each run is kept in
``<tmp>/schemathesis-<client>.txt`` (the path is printed).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from werkzeug.serving import make_server  # noqa: E402

from scorekeeper import create_app, transaction  # noqa: E402
from scorekeeper.services import circles  # noqa: E402
from tests.robustness.servers import migrate  # noqa: E402

CLIENTS = ("stranger", "scorer", "circle")
SCHEMATHESIS = str(Path(sys.executable).parent / "schemathesis")


def serve(port: int, tmp: Path) -> tuple[object, dict[str, object]]:
    """The app on 127.0.0.1:``port`` in a thread, and the tokens it was given."""
    url = f"sqlite:///{tmp / 'schema.sqlite'}"
    migrate(url, tmp / "instance")
    app = create_app(
        {
            "SECRET_KEY": "schema-bench",
            "SQLALCHEMY_DATABASE_URI": url,
            "GAME_QUOTA": 1_000_000,
            "RATE_LIMIT_FAILURES": 1_000_000,
        },
        instance_path=tmp / "instance",
    )
    with app.app_context(), transaction.atomic():
        circle = circles.api_token(circles.create_circle("Friends"))
    client = app.test_client()
    answer = client.post(
        "/api/v1/games",
        json={"players": ["Ann", "Ben", "Cat"]},
        headers={"Authorization": f"Bearer {circle}"},
    ).get_json()
    tokens = {
        "circle": circle,
        "default_scorer": answer["scorer_token"],
        "scorers": {answer["id"]: answer["scorer_token"]},
    }
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, tokens


FAILURE = re.compile(r"^_+ (?P<op>(GET|POST|PUT|DELETE|PATCH) \S+) _+$")
KIND = re.compile(r"^- (?P<kind>[^\n]+)$")


def failures(output: str) -> dict[str, int]:
    """Failure kinds (the check's title, per operation) in schemathesis's report."""
    kinds: dict[str, int] = {}
    operation = ""
    for line in output.split("= WARNINGS =")[0].split("= SUMMARY =")[0].splitlines():
        if match := FAILURE.match(line.strip()):
            operation = match["op"]
        elif operation and (match := KIND.match(line)):
            key = f"{operation}: {match['kind']}"
            kinds[key] = kinds.get(key, 0) + 1
    return kinds


def run(client: str, base: str, tokens: Path, args: argparse.Namespace, tmp: Path) -> dict:
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "bench.schema_hooks",
        "SCOREKEEPER_AS": client,
        "SCOREKEEPER_TOKENS": str(tokens),
        "PYTHONPATH": str(ROOT),
    }
    command = [
        SCHEMATHESIS,
        "--config-file",
        str(ROOT / "bench" / "schemathesis.toml"),
        "run",
        f"{base}/api/v1/openapi.json",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        str(args.max_examples),
        "--workers",
        "1",
        "--continue-on-failure",
        "--seed",
        str(args.seed),
        "--no-color",
        "--suppress-health-check",
        "all",
    ]
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=tmp, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    log = tmp / f"schemathesis-{client}.txt"
    log.write_text(done.stdout + done.stderr)
    summary = [line for line in done.stdout.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    return {
        "client": client,
        "exit": done.returncode,
        "failures": failures(done.stdout),
        "summary": summary[-1].strip(" =") if summary else "",
        "seconds": round(seconds, 1),
        "log": str(log),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=5851)
    parser.add_argument("--max-examples", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--as", dest="clients", default=",".join(CLIENTS))
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="scorekeeper-schema-"))
    server, tokens = serve(args.port, tmp)
    token_file = tmp / "tokens.json"
    token_file.write_text(json.dumps(tokens))
    base = f"http://127.0.0.1:{args.port}"
    results = []
    try:
        for client in args.clients.split(","):
            result = run(client, base, token_file, args, tmp)
            results.append(result)
            total = sum(result["failures"].values())
            print(f"{client}: {total} failures, exit {result['exit']}, {result['seconds']} s")
            print(f"  {result['summary']}  ({result['log']})")
            for kind, count in sorted(result["failures"].items()):
                print(f"  {count:4d}  {kind}")
    finally:
        server.shutdown()  # type: ignore[attr-defined]
    if args.json:
        print(json.dumps({"max_examples": args.max_examples, "runs": results}))
    sys.exit(1 if any(r["exit"] for r in results) else 0)


if __name__ == "__main__":
    main()
