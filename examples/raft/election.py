"""The guide's worked example: pysyncobj's leader election checked against the Raft
election spec ``spec/RaftElection.tla``, unchanged, through the conformance module
``spec/PySyncObjRaft.tla``.

Three ``pysyncobj.SyncObj`` nodes run on loopback, ticked by hand from this thread (so
a check that fails raises here, inside the node's own call).  Each event is logged with
the term, role and vote of the node it happened on (a partial trace): an election
timeout, a vote request or heartbeat sent, a message of a newer term seen, a message
received, an election won.  The instrumentation wraps three of pysyncobj's methods
(message handler, tick, send); the library itself is unchanged.

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
MODULE = "PySyncObjRaft"
"""The conformance module: it EXTENDS ``RaftElection`` (the spec, unchanged)."""
NIL = "none"
ROLES = ("Follower", "Candidate", "Leader")
"""pysyncobj's ``_RAFT_STATE`` values, in order."""
Cluster = dict[str, Any]
"""Node id (``host:port``) -> its ``SyncObj``."""
Server = tuple[int, str, str]
"""A node's currentTerm, state and votedFor, as the spec names them."""

SENDS = {"request_vote": "SendRequestVote", "append_entries": "SendAppendEntries"}
RECEIVES = {"request_vote": "ReceiveRequestVote", "response_vote": "ReceiveVote",
            "append_entries": "ReceiveAppendEntries"}
LOGGED: dict[str, tuple[str, ...]] = {
    "SendRequestVote": (), "SendAppendEntries": (),
    # the first of two events one handler call makes logs what the second leaves alone
    "SeeNewerTerm": ("currentTerm", "state"), "ReceiveVote": ("currentTerm", "votedFor")}
"""The variables an event logs, when not all three."""


def server(node: Any) -> Server:
    """The node's term, role and vote (``none``): the spec's variables for one server."""
    voted = node._SyncObj__votedForNodeId
    return (node._SyncObj__raftCurrentTerm, ROLES[node._SyncObj__raftState],
            NIL if voted is None else str(voted))


def node_id(node: Any) -> str:
    return str(node._SyncObj__selfNode.id)


def refine(cluster: Cluster) -> dict[str, Any]:
    """The refinement mapping (the initial state): every node's term, role and vote;
    the spec's ``Init`` fills in the rest (``votesGranted``, ``messages``)."""
    servers = {i: server(n) for i, n in cluster.items()}
    return {name: {i: s[k] for i, s in servers.items()}
            for k, name in enumerate(("currentTerm", "state", "votedFor"))}


def observe(action: str | None, params: Any, cluster: Cluster) -> dict[str, Any]:
    """What one event logs: the term, role and vote of the node it happened on (a send
    logs none of them)."""
    i = params.get("node", params.get("dest"))
    values = dict(zip(("currentTerm", "state", "votedFor"), server(cluster[i]), strict=True))
    names = LOGGED.get(action or "", tuple(values))
    return {name: tlaconf.Some({i: values[name]}) for name in names}


@contextmanager
def instrumented(rec: tlaconf.Recorder[Cluster], cluster: Cluster) -> Iterator[None]:
    """pysyncobj's message handler, tick and send wrapped to record each event (restored
    after); install before the nodes are made (they bind their handler)."""
    from pysyncobj import SyncObj
    from pysyncobj.transport import TCPTransport

    handle: Callable[..., Any] = SyncObj._SyncObj__onMessageReceived
    tick: Callable[..., Any] = SyncObj._onTick
    send: Callable[..., Any] = TCPTransport.send
    logged: dict[str, Server] = {}
    held: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    """Sends made inside a handler, logged after the handler's own events."""

    def timed_out(node: Any) -> None:
        """A change no message made is the election timeout of the node's tick."""
        i = node_id(node)
        if server(node) != logged.setdefault(i, (0, "Follower", NIL)):
            rec.accepted("ElectionTimeout", {"node": i}, cluster)
            logged[i] = server(node)

    def on_send(transport: Any, peer: Any, message: Any) -> Any:
        out = send(transport, peer, message)
        kind = SENDS.get(message.get("type")) if isinstance(message, dict) else None
        if kind is not None:
            node = transport._syncObj
            i = node_id(node)
            event = (kind, {"source": i, "dest": str(peer.id)})
            if i in held:
                held[i].append(event)
            else:
                timed_out(node)
                rec.accepted(*event, cluster)
        return out

    def on_message(node: Any, sender: Any, message: dict[str, Any]) -> Any:
        timed_out(node)
        i, before = node_id(node), server(node)
        own = (node._SyncObj__getCurrentLogTerm(), node._SyncObj__getCurrentLogIndex())
        held[i] = []
        try:
            out = handle(node, sender, message)
        finally:
            sends = held.pop(i)
        kind = RECEIVES.get(message.get("type"))
        if kind is not None and sender is not None:
            p = {"source": str(sender.id), "dest": i, "term": message["term"]}
            if server(node)[0] > before[0]:
                rec.accepted("SeeNewerTerm", p, cluster)
            if kind == "ReceiveRequestVote":
                p |= {"lastLogTerm": message["last_log_term"],
                      "lastLogIndex": message["last_log_index"],
                      "ownLastLogTerm": own[0], "ownLastLogIndex": own[1]}
            rec.accepted(kind, p, cluster)
            if server(node)[1] == "Leader" != before[1]:
                rec.accepted("WinElection", {"node": i}, cluster)
        logged[i] = server(node)
        for event in sends:
            rec.accepted(*event, cluster)
        return out

    def on_tick(node: Any, timeToWait: float = 0.0) -> Any:
        out = tick(node, timeToWait)
        timed_out(node)
        return out

    SyncObj._SyncObj__onMessageReceived = on_message
    SyncObj._onTick = on_tick
    TCPTransport.send = on_send
    try:
        yield
    finally:
        SyncObj._SyncObj__onMessageReceived = handle
        SyncObj._onTick = tick
        TCPTransport.send = send


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def elect(path: Path, seconds: float = 10.0, timeouts: tuple[float, float] = (0.4, 1.2)
          ) -> tlaconf.TraceResult:
    """Run three nodes until one is leader and every node follows it (at most
    ``seconds``; election timeouts drawn from ``timeouts``), recording with the online
    check; the result, or the rejection (``tlaconf.ConformanceError``) raised from the
    node call that logged it."""
    from pysyncobj import SyncObj, SyncObjConf

    addresses = [f"127.0.0.1:{p}" for p in free_ports(3)]
    cluster: Cluster = {}
    rec = tlaconf.Recorder(path, MODULE, refine, observe=observe,
                           constants={"Server": set(addresses), "Nil": NIL},
                           check=True, spec=SPEC)
    conf = SyncObjConf(autoTick=False, raftMinTimeout=timeouts[0], raftMaxTimeout=timeouts[1],
                       appendEntriesPeriod=timeouts[0] / 4,
                       connectionRetryTime=0.1, dynamicMembershipChange=False)
    try:
        with rec, instrumented(rec, cluster):  # before the nodes bind handlers
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
