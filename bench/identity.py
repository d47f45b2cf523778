"""What a state's identity costs: ``Model.fingerprint`` (64-bit, kinds apart) on every
state a breadth-first search of ``Tokens`` (``bench/data/explore/Tokens.cfg``, no
symmetry) generates, in CPU microseconds per state, beside the search's CPU per state:
cold (nothing remembered: every value fingerprinted) and warm (every value remembered, as
what a step leaves unchanged is in a search); a search pays between the two."""

from __future__ import annotations

import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
MODELS = PROJECT / "tests" / "explore" / "models"
CONFIGS = PROJECT / "bench" / "data" / "explore"


def main() -> None:
    from tlaconf.explore import bfs, load_model
    from tlaconf.explore.identity import forget

    model = load_model(MODELS / "Tokens.tla", CONFIGS / "Tokens.cfg")
    states = []
    frontier = model.initial_states()
    seen: set[int] = set()
    cpu = time.process_time()
    res = bfs(model)
    search = time.process_time() - cpu
    while frontier:
        nxt = []
        for s in frontier:
            for t in model.successors(s):
                states.append(t.state)
                fp = model.fingerprint(t.state)
                if fp not in seen and model.in_constraints(t.state):
                    seen.add(fp)
                    nxt.append(t.state)
        frontier = nxt
    per_search = search / res.total_states * 1e6
    for cold in (True, False):
        best = float("inf")
        for _ in range(5):
            if cold:
                forget()
            cpu = time.process_time()
            for s in states:
                model.fingerprint(s)
            best = min(best, time.process_time() - cpu)
        per_state = best / len(states) * 1e6
        print(f"{len(states):,} states, {'cold' if cold else 'warm'}: fingerprint "
              f"{per_state:.1f} us/state (CPU), {per_state / per_search * 100:.1f}% of the "
              f"search's {per_search:.0f} us/state")
