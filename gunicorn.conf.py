"""gunicorn settings for `make run`: gthread workers sized for the machine, logs to stdout.

Every value can be changed from the environment (the Makefile passes WORKERS, THREADS, HOST
and PORT through): WORKERS=4 THREADS=8 make run.
"""

import os

wsgi_app = "scorekeeper:create_app()"
bind = f"{os.environ.get('HOST') or '127.0.0.1'}:{os.environ.get('PORT') or '5000'}"
worker_class = "gthread"
# Two processes per core, one request thread each. Python runs one thread of a process at a
# time, and a thread that got an answer from SQLite or PostgreSQL waits for the GIL behind its
# busy siblings (up to 5 ms a switch): a round save holding SQLite's one write lock (or a
# PostgreSQL game row) held it for each of its statements' waits, so every other writer of
# every process queued behind it while the cores sat half idle. Measured with 50 writers
# (bench/README.md, "Load run"): SQLite's write lock held 6.5 ms (median) with 2 x 4 against
# 1.9 ms with 4 x 1, round-save p99 167-546 ms against 75-127 ms, 1.2-1.3 cores busy against
# 1.6. The second process per core overlaps the waits (commit, network) that threads did.
# The cost: with as many clients drawing charts as there are threads, pages wait behind the
# drawing; the per-client chart limit stops that (bench/README.md, "Charts and pages").
# Charts: a process draws one at a time, so at most `workers` at once (CHART_RENDER_SLOTS caps
# it per process when THREADS is raised). Slow clients hold a thread while they send: serve
# behind a buffering proxy (docs/deploy.md), as gunicorn advises.
workers = int(os.environ.get("WORKERS") or 2 * (os.cpu_count() or 1))
threads = int(os.environ.get("THREADS") or 1)
# A worker takes a connection only when a thread of its own is free, and closes it after the
# answer. gthread otherwise accepts up to 1,000 connections a worker and queues them behind its
# busy threads: a round save accepted by a worker whose one thread waited on a photo read waited
# with it (bench A, "A club night": round-save max 570-1,083 ms; with this 13-21 ms). Waiting
# connections stay in the kernel's queue until any worker is free. The cost: no keep-alive, a
# new TCP connection a request (a LAN or the proxy's own connections: well under a millisecond).
worker_connections = threads
keepalive = 0
# Access and error lines on stdout/stderr; tokens and credentials redacted
# (scorekeeper/infra/logs.py).
accesslog = "-"
errorlog = "-"
logger_class = "scorekeeper.infra.logs.RedactingGunicornLogger"
# Time for a slow request to finish when a worker is told to stop.
graceful_timeout = 20
# gunicornc's control socket has one default path per user ($HOME/.gunicorn/gunicorn.ctl):
# a second server of the same user would take it over. Nothing here uses it.
control_socket_disable = True


def post_worker_init(worker):
    """Each worker starts its photo workers as it boots (services/photo_lane.py: prestart)."""
    from scorekeeper.services import photo_lane

    photo_lane.prestart(worker.wsgi)
