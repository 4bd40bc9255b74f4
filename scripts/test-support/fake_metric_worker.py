"""A stand-in for SEKit's metric worker (Sources/SEKit/Resources/sekit_metric_worker.py) in tests of
how ``sekit score`` handles a worker that never answers. Standard library only.

It speaks the worker's protocol: ``describe`` is answered with the packages asked for (version
"0"), and any other request (after reading its samples) with one value, 3.0. With
``SEKIT_FAKE_WORKER_HANG=start`` it never answers anything; with ``SEKIT_FAKE_WORKER_HANG=clip`` it
answers ``describe`` but not the first clip. A hanging worker waits for its stdin to close (SEKit
killed or gone) and then exits, so that it never outlives the test.
"""

import json
import os
import sys


def main():
    stdin = sys.stdin.buffer
    hang = os.environ.get("SEKIT_FAKE_WORKER_HANG", "")
    if hang == "start":
        stdin.read()
        return
    for line in iter(stdin.readline, b""):
        request = json.loads(line)
        for count in request.get("lengths", []):
            left = 4 * count
            while left > 0:
                chunk = stdin.read(left)
                if not chunk:
                    return
                left -= len(chunk)
        if request["op"] == "describe":
            reply = {"ok": True, "python": "fake", "executable": sys.executable,
                     "packages": {name: "0" for name in request.get("packages", [])}}
        elif hang == "clip":
            stdin.read()
            return
        else:
            reply = {"ok": True, "values": [float(3).hex()]}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
