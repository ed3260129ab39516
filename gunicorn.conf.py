"""gunicorn settings for `make run`: gthread workers sized for the machine, logs to stdout.

Every value can be changed from the environment (the Makefile passes WORKERS, THREADS, HOST
and PORT through): WORKERS=4 THREADS=8 make run.
"""

import os

wsgi_app = "scorekeeper:create_app()"
bind = f"{os.environ.get('HOST') or '127.0.0.1'}:{os.environ.get('PORT') or '5000'}"
worker_class = "gthread"
# One process per core keeps both busy; a few threads overlap the waits (database, commit,
# network) inside each process. More threads do not add CPU: Python runs one thread of a
# process at a time, so on 2 cores 8 threads a process only queued more requests inside it,
# switching between them every few milliseconds (a round save's p99 under 50 writers: 0.97 s
# with 3 x 8, 0.30 s with 2 x 4; bench/README.md, "Load run"). Requests past those wait in
# the kernel's queue instead. Chart files are shared by every process (charts/cache.py), but
# each process keeps its own game snapshots: more processes would read each version more often.
workers = int(os.environ.get("WORKERS") or os.cpu_count() or 2)
threads = int(os.environ.get("THREADS") or 4)
# Access and error lines on stdout/stderr; tokens and credentials redacted (scorekeeper/logs.py).
accesslog = "-"
errorlog = "-"
logger_class = "scorekeeper.logs.RedactingGunicornLogger"
# Time for a slow request to finish when a worker is told to stop.
graceful_timeout = 20
# gunicornc's control socket has one default path per user ($HOME/.gunicorn/gunicorn.ctl):
# a second server of the same user would take it over. Nothing here uses it.
control_socket_disable = True
