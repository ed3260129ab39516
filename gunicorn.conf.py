"""gunicorn settings for `make run`: gthread workers sized for the machine, logs to stdout.

Every value can be changed from the environment (the Makefile passes WORKERS, THREADS, HOST
and PORT through): WORKERS=4 THREADS=8 make run.
"""

import os

wsgi_app = "scorekeeper:create_app()"
bind = f"{os.environ.get('HOST') or '127.0.0.1'}:{os.environ.get('PORT') or '5000'}"
worker_class = "gthread"
# One process per core keeps both busy; threads overlap the waits (database, network) inside
# each process. Charts are files every process shares (charts/cache.py), but each process keeps
# its own game snapshots (services/games/snapshot.py): more processes would read each new
# version of a game more often.
workers = int(os.environ.get("WORKERS") or os.cpu_count() or 2)
threads = int(os.environ.get("THREADS") or 8)
# Access and error lines on stdout/stderr; tokens and credentials redacted (scorekeeper/logs.py).
accesslog = "-"
errorlog = "-"
logger_class = "scorekeeper.logs.RedactingGunicornLogger"
# Time for a slow request to finish when a worker is told to stop.
graceful_timeout = 20
# gunicornc's control socket has one default path per user ($HOME/.gunicorn/gunicorn.ctl):
# a second server of the same user would take it over. Nothing here uses it.
control_socket_disable = True
