"""gunicorn settings for serving Scorekeeper (bin/serve and deployments; see README).

Every value can be changed with an environment variable, so one file serves a laptop at
the card table and several app servers behind a reverse proxy.
"""

import os

bind = os.environ.get("BIND", f"0.0.0.0:{os.environ.get('PORT', '5000')}")
# Processes share nothing but the database: any number of them (or machines) may serve.
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = 30
graceful_timeout = 10
keepalive = 5
# Only the reverse proxy on these addresses may say that a request came over HTTPS.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Off unless asked for (ACCESS_LOG=- for stdout, or a file): behind a reverse proxy the
# proxy logs every request, and formatting a log line costs as much as serving a page
# from the page cache. bin/serve turns it on for the table's laptop.
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
control_socket_disable = True
wsgi_app = "scorekeeper:create_app()"
