"""gunicorn settings for serving Scorekeeper (bin/serve and deployments; see README).

Every value can be changed with an environment variable, so one file serves a laptop at
the card table and several app servers behind a reverse proxy.
"""

import gc
import os
import shutil
import tempfile
from typing import Any

bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '5000')}")
# Processes share nothing but the database: any number of them (or machines) may serve.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# gthread, with each request read whole in the event loop before a thread takes it
# (scorekeeper/serving.py): a slow or half-sent request holds no thread.
worker_class = "scorekeeper.serving.Worker"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# Connections one worker holds at once. Behind a reverse proxy these are the proxy's few
# busy connections: 16 is plenty, and few enough that a burst spreads over both workers
# instead of piling onto whichever accepted first (with 1000, one of two workers often
# got most of 32 new connections and the pair served at a third of its speed). bin/serve,
# where every phone at the table keeps its own connection open, sets 100. (A following
# phone's live channel, parked in the worker's loop, doesn't count: scorekeeper/serving.py.)
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "16"))
timeout = 30
graceful_timeout = 10
keepalive = 5
# Only the reverse proxy on these addresses may say that a request came over HTTPS.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Not even they may set SCRIPT_NAME (gunicorn's default takes it from a request header of
# that name): every link of a page is built with it. A path prefix comes from the proxy's
# X-Forwarded-Prefix, with PROXY_HOPS (see README); headers with "_" are dropped.
forwarder_headers = ""
header_map = "drop"
# Off unless asked for (ACCESS_LOG=- for stdout, or a file): behind a reverse proxy the
# proxy logs every request, and formatting a log line costs as much as serving a page
# from the page cache. bin/serve turns it on for the table's laptop.
accesslog = os.environ.get("ACCESS_LOG") or None
# Every log line masks the secret part of scorer, seat, table and circle links.
logger_class = "scorekeeper.accesslog.Logger"
errorlog = "-"
control_socket_disable = True
wsgi_app = "scorekeeper:create_app()"


def post_worker_init(worker: object) -> None:
    """Once the worker has loaded the app: what it holds now (modules, compiled templates,
    mappers, catalogs) lives as long as the worker, so the garbage collector's full passes
    stop going through it. They fell inside requests: about a tenth of a tap's CPU (4 to
    19 % in five runs of bench/change_cost.py, which does the same)."""
    gc.freeze()


_shared_pages: list[str] = []  # the folder this server made for its workers' pages


def on_starting(server: Any) -> None:
    """A private folder where this server's workers share the pages they render
    (scorekeeper/services/pagecache.py): when every follower of a game asks for its new
    version at once, one worker renders it instead of each. One server, one folder; gone
    when the server stops. A folder named by whoever started this server is not ours to
    make or remove: with one worker there is nobody to share with."""
    os.environ.pop("PAGE_SHARE_DIR", None)
    if server.cfg.workers > 1:
        folder = tempfile.mkdtemp(prefix="scorekeeper-pages-")
        _shared_pages.append(folder)
        os.environ["PAGE_SHARE_DIR"] = folder


def on_exit(server: Any) -> None:
    while _shared_pages:
        shutil.rmtree(_shared_pages.pop(), ignore_errors=True)
