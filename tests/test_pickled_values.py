"""Values pickled in one process and loaded in another (``replay --cluster``, ``explore
-w``/``--cluster``): a function's cached hash depends on the process's string-hash seed,
so it must not travel with the function."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys

from tlaconf.values import Fn, make_fn

_CHECK = """
import pickle, sys
from tlaconf.values import make_fn
loaded = pickle.loads(sys.stdin.buffer.read())
fresh = make_fn({"a": 1, "bb": 2, "ccc": 3})
print(loaded == fresh and hash(loaded) == hash(fresh) and fresh in {loaded})
"""


def test_a_function_is_equal_to_itself_in_a_process_with_another_hash_seed() -> None:
    value = make_fn({"a": 1, "bb": 2, "ccc": 3})
    assert type(value) is Fn
    hash(value)  # cache the hash under this process's seed
    blob = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    for seed in ("1", "2", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", _CHECK], input=blob, env=env,
                             capture_output=True, check=True)
        assert out.stdout.decode().strip() == "True", out.stderr.decode()
