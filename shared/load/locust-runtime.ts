/**
 * The Python a generated locustfile runs (docs/load.md "Locust"), first half: the imports, the shape as Locust's
 * LoadTestShape (target_at mirrors targetAt in shape.ts), the budget of N × C kept by the master, and the final
 * CSV. It reads everything it sends from CONFIG, which locustfile.ts writes above it as JSON: nothing here is
 * generated, so no value of a request can become code.
 */
export const LOCUST_IMPORTS = String.raw`import gc
import json
import logging
import math
import os
import random
import sys
import time

import locust.runners
from locust import LoadTestShape, User, constant, events, task
from locust.exception import StopUser
from locust.runners import MasterRunner, WorkerRunner
from locust.stats import StatsCSVFileWriter

import gevent
import requests
from gevent.event import AsyncResult

# Debian's python3-locust 2.12.1 reports an empty version, and a master takes a worker that reports none for a
# pre-2.0 one and refuses it: with the same non-empty name on every node, master and workers connect.
if not locust.runners.__version__:
    locust.runners.__version__ = "2-unnamed"

`;

export const LOCUST_SHAPE = String.raw`KEY = os.environ.get(CONFIG["keyEnv"], "")
SECRETS = [v for v in {KEY, *(os.environ.get(env, "") for _n, _p, env in CONFIG["envHeaders"])} if v]
# Locust's Type column: the protocol, which "Import Locust results" reads back.
LLM = CONFIG["protocol"]
# Failed requests are reported apart, so that the E2E entry holds the completed ones, as the app's E2E does.
FAILED = "E2E (failed)"
SPAWN_RATE = 100
log = logging.getLogger("gateway-playground")


class Failure(Exception):
    """A request that did not end in a complete answer; its text starts with the class (docs/load.md)."""

    def __repr__(self):
        return self.args[0]


def redacted(text):
    for secret in SECRETS:
        text = text.replace(secret, "[redacted]")
    return text


def excerpt(text, n=160):
    text = " ".join(str(text).split())
    return redacted(text if len(text) <= n else text[: n - 1] + "\u2026")


# ---- the shape: target_at mirrors shared/load/shape.ts -------------------------------------------------

SHAPE = CONFIG["shape"]


def shape_duration():
    kind = SHAPE["kind"]
    if kind == "fixed":
        return SHAPE.get("durationCapS")
    if kind == "stages":
        return sum(s["durationS"] for s in SHAPE["stages"])
    return SHAPE["durationS"]


def target_at(t):
    """(stage, label, concurrency, rate) t seconds into the run, or None once a timed shape is over."""
    end = shape_duration()
    if end is not None and t >= end:
        return None
    kind = SHAPE["kind"]
    if kind == "fixed":
        return (0, "N \u00d7 C", SHAPE["concurrency"], None)
    if kind == "ramp":
        a, b, d = SHAPE["from"], SHAPE["to"], SHAPE["durationS"]
        # Math.round in the app rounds halves up; Python's round() would round them to even.
        c = max(1, int(math.floor(a + (b - a) * min(t, d) / d + 0.5)))
        return (0, "Ramp %d \u2192 %d \u00b7 %d at once" % (a, b, c), c, None)
    if kind == "soak":
        return (0, "Soak \u00b7 %s/s" % num(SHAPE["ratePerSec"]), None, SHAPE["ratePerSec"])
    ends, at = [], 0
    for s in SHAPE["stages"]:
        at += s["durationS"]
        ends.append(at)
    i = next(k for k, e in enumerate(ends) if t < e)
    s = SHAPE["stages"][i]
    words = "%d at once" % s["concurrency"] if "concurrency" in s else "%s/s" % num(s["ratePerSec"])
    label = "Stage %d of %d \u00b7 %s" % (i + 1, len(ends), words)
    return (i, label, s.get("concurrency"), s.get("ratePerSec"))


def num(x):
    return ("%d" % x) if float(x).is_integer() else ("%s" % x)


def arrival_users(rate):
    """Open loop: this many users each keep an arrival clock at rate/users, so the workers share the rate."""
    return max(1, min(int(math.ceil(rate)), 100))


# ---- N x C: a budget of N requests, kept by the master (or the one process) -----------------------------


class Budget:
    def __init__(self):
        self.issued = 0
        self.started = None

    def take(self):
        """The seconds to wait before request number issued may start (the target rate), or None: all sent."""
        if self.issued >= SHAPE["requests"]:
            return None
        now = time.monotonic()
        if self.started is None:
            self.started = now
        i = self.issued
        self.issued += 1
        rate = SHAPE.get("ratePerSec")
        return max(0.0, self.started + i / rate - now) if rate else 0.0


BUDGET = Budget()
PENDING = {}
ASKED = [0]


def ticket(environment):
    """Ask for the right to send one more request of the N; the delay to wait first, or None."""
    runner = environment.runner
    if not isinstance(runner, WorkerRunner):
        return BUDGET.take()
    ASKED[0] += 1
    ask_id = "%s-%d" % (runner.client_id, ASKED[0])
    answer = PENDING[ask_id] = AsyncResult()
    runner.send_message("gp_ticket", {"id": ask_id})
    try:
        return answer.get(timeout=60)["delay"]
    finally:
        PENDING.pop(ask_id, None)


@events.init.add_listener
def on_init(environment, **_kw):
    runner = environment.runner
    if isinstance(runner, MasterRunner):

        def on_ticket(environment, msg, **_kw):
            delay = BUDGET.take()
            runner.send_message("gp_ticket_reply", {"id": msg.data["id"], "delay": delay}, client_id=msg.node_id)

        runner.register_message("gp_ticket", on_ticket)
        return
    if isinstance(runner, WorkerRunner):

        def on_reply(environment, msg, **_kw):
            answer = PENDING.get(msg.data["id"])
            if answer is not None:
                answer.set(msg.data)

        runner.register_message("gp_ticket_reply", on_reply)
    if CONFIG["keyRequired"] and not KEY:
        log.error("Set %s to the gateway's key: this test sends it, and it is never written into this file.", CONFIG["keyEnv"])
        sys.exit(2)


@events.quitting.add_listener
def on_quitting(environment, **_kw):
    """Locust 2.12 rewrites its CSV files once a second and flushes them every ten, but not at exit: the last
    figures would be missing. Its writer is found and asked for one more round, flushed."""
    for writer in [o for o in gc.get_objects() if isinstance(o, StatsCSVFileWriter)]:
        writer.requests_csv_filehandle.seek(0)
        writer.requests_csv(writer.requests_csv_writer)
        writer.requests_csv_filehandle.truncate()
        writer.failures_csv_filehandle.seek(0)
        writer.failures_csv(writer.failures_csv_writer)
        writer.failures_csv_filehandle.truncate()
        writer._stats_history_data_rows(writer.stats_history_csv_writer, time.time())
        writer.requests_flush()
        writer.failures_flush()
        writer.stats_history_flush()


RUN_START = [time.monotonic()]


@events.test_start.add_listener
def on_test_start(environment, **_kw):
    RUN_START[0] = time.monotonic()


def e2e_done(environment):
    """N x C: every request of the N has ended and been reported here (to the master: every 3 s)."""
    entries = environment.stats.entries
    ended = [entries.get((name, LLM)) for name in ("E2E", FAILED)]
    return sum(e.num_requests for e in ended if e is not None) >= SHAPE["requests"]


class GatewayShape(LoadTestShape):
    """Locust's user count follows the shape second by second (docs/load.md "Locust")."""

    label = None

    def tick(self):
        t = self.get_run_time()
        target = target_at(t)
        if target is None or (SHAPE["kind"] == "fixed" and e2e_done(self.runner.environment)):
            return None
        stage, label, concurrency, rate = target
        if label != self.label:
            self.label = label
            log.info("%s", label)
        return (concurrency if concurrency is not None else arrival_users(rate), SPAWN_RATE)


`;
