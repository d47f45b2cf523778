"""The guide's worked example: pysyncobj's leader election checked against ``RaftVote``.

Three ``pysyncobj.SyncObj`` nodes run on loopback, ticked by hand from this thread (so
a check that fails raises here, inside the node's own call).  Each node's term and vote
are logged as a partial trace, one event per step the spec knows: ``Timeout`` (a new
election), ``UpdateTerm`` (a newer term seen) and ``HandleRequestVote`` (a vote
request handled, granted or not).  The instrumentation wraps two of pysyncobj's
methods; the library itself is unchanged.

``python examples/raft/election.py [--bug]`` runs one election (at most ``--seconds``);
``--bug`` plants a bug: a node that receives a vote request of a newer term votes but
does not adopt the term.  Exit 0 when the run conforms, 1 with the rejection otherwise.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import tlaconf

SPEC = Path(__file__).resolve().with_name("spec")
NIL = "none"
Cluster = dict[str, Any]
"""Node id (``host:port``) -> its ``SyncObj``."""


def term_and_vote(node: Any) -> tuple[int, str]:
    """The node's current term and vote (``none``): the spec's two variables."""
    voted = node._SyncObj__votedForNodeId
    return node._SyncObj__raftCurrentTerm, NIL if voted is None else str(voted)


def node_id(node: Any) -> str:
    return str(node._SyncObj__selfNode.id)


def refine(cluster: Cluster) -> dict[str, Any]:
    """The refinement mapping: every node's term and vote."""
    states = {i: term_and_vote(n) for i, n in cluster.items()}
    return {"currentTerm": {i: t for i, (t, _) in states.items()},
            "votedFor": {i: v for i, (_, v) in states.items()}}


def observe(action: str | None, params: Any, cluster: Cluster) -> dict[str, Any]:
    """What one event logs: the term and vote of the node it happened on."""
    i = params.get("dest", params.get("node"))
    term, voted = term_and_vote(cluster[i])
    return {"currentTerm": tlaconf.Some({i: term}), "votedFor": tlaconf.Some({i: voted})}


@contextmanager
def instrumented(rec: tlaconf.Recorder[Cluster], addresses: list[str], cluster: Cluster
                 ) -> Iterator[None]:
    """pysyncobj's message handler and tick wrapped to record each event (restored after)."""
    from pysyncobj import SyncObj

    handle: Callable[..., Any] = SyncObj._SyncObj__onMessageReceived
    tick: Callable[..., Any] = SyncObj._onTick
    logged: dict[str, tuple[int, str]] = {i: (0, NIL) for i in addresses}

    def timed_out(node: Any) -> None:
        """A change no message made is the election timeout of the node's tick."""
        i = node_id(node)
        if term_and_vote(node) != logged[i]:
            rec.accepted("Timeout", {"node": i}, cluster)
            logged[i] = term_and_vote(node)

    def on_message(node: Any, sender: Any, message: dict[str, Any]) -> Any:
        timed_out(node)
        i, before = node_id(node), term_and_vote(node)
        own = (node._SyncObj__getCurrentLogTerm(), node._SyncObj__getCurrentLogIndex())
        out = handle(node, sender, message)
        if message.get("type") == "request_vote" and sender is not None:
            rec.accepted("HandleRequestVote", {
                "dest": i, "source": str(sender.id), "term": message["term"],
                "lastLogTerm": message["last_log_term"],
                "lastLogIndex": message["last_log_index"],
                "ownLastLogTerm": own[0], "ownLastLogIndex": own[1]}, cluster)
        elif term_and_vote(node) != before:
            rec.accepted("UpdateTerm", {"node": i, "term": message["term"]}, cluster)
        logged[i] = term_and_vote(node)
        return out

    def on_tick(node: Any, timeToWait: float = 0.0) -> Any:
        out = tick(node, timeToWait)
        timed_out(node)
        return out

    SyncObj._SyncObj__onMessageReceived = on_message
    SyncObj._onTick = on_tick
    try:
        yield
    finally:
        SyncObj._SyncObj__onMessageReceived = handle
        SyncObj._onTick = tick


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def elect(path: Path, seconds: float = 10.0) -> tlaconf.TraceResult:
    """Run three nodes until one is leader and every node follows it (at most
    ``seconds``), recording with the online check; the result, or the rejection
    (``tlaconf.ConformanceError``) raised from the node call that logged it."""
    from pysyncobj import SyncObj, SyncObjConf

    addresses = [f"127.0.0.1:{p}" for p in free_ports(3)]
    cluster: Cluster = {}
    rec = tlaconf.Recorder(path, "RaftVote", refine, observe=observe,
                           constants={"Server": set(addresses)}, check=True, spec=SPEC)
    conf = SyncObjConf(autoTick=False, raftMinTimeout=0.4, raftMaxTimeout=1.2,
                       appendEntriesPeriod=0.1,
                       connectionRetryTime=0.1, dynamicMembershipChange=False)
    try:
        with rec, instrumented(rec, addresses, cluster):  # before the nodes bind handlers
            for a in addresses:
                cluster[a] = SyncObj(a, [b for b in addresses if b != a], conf=conf)
            rec.init(cluster)
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not _settled(cluster):
                for node in cluster.values():
                    node.doTick(0.005)
    finally:
        for node in cluster.values():
            node.destroy()
    assert rec.result is not None
    return rec.result


def _settled(cluster: Cluster) -> bool:
    leaders = {str(n._getLeader()) if n._getLeader() is not None else None
               for n in cluster.values()}
    return len(leaders) == 1 and None not in leaders


@contextmanager
def planted_bug() -> Iterator[None]:
    """The bug: a vote request of a newer term is granted, but the node keeps its old term
    (it forgets to step into the new term first)."""
    from pysyncobj import SyncObj

    handle = SyncObj._SyncObj__onMessageReceived

    def buggy(node: Any, sender: Any, message: dict[str, Any]) -> Any:
        old = node._SyncObj__raftCurrentTerm
        out = handle(node, sender, message)
        if message.get("type") == "request_vote" and message["term"] > old:
            node._SyncObj__raftCurrentTerm = old
        return out

    SyncObj._SyncObj__onMessageReceived = buggy
    try:
        yield
    finally:
        SyncObj._SyncObj__onMessageReceived = handle


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="store_true", help="plant the bug")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--trace", type=Path, default=None, help="where to write the log")
    args = parser.parse_args(argv)
    path = args.trace or Path(tempfile.mkdtemp()) / "election.trace.jsonl"
    try:
        if args.bug:
            with planted_bug():
                result = elect(path, args.seconds)
        else:
            result = elect(path, args.seconds)
    except tlaconf.ConformanceError as err:
        print(f"rejected: {err}")
        return 1
    print(f"{result.verdict}: {result.steps} events checked ({path})")
    return 0 if result.verdict == "conforms" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
