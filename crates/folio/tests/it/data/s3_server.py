"""A local S3-compatible server for the S3 blob tests: moto's, from PyPI (.ci/requirements.txt).

Listens on 127.0.0.1 on a free port, prints that port on one line, and stops when its standard
input closes (so it never outlives the test that started it, even one that panicked).
"""

import logging
import sys

from moto.server import ThreadedMotoServer

# No line per request: the test reads stderr only when the server fails to start.
logging.getLogger("werkzeug").setLevel(logging.ERROR)
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
print(server.get_host_and_port()[1], flush=True)
sys.stdin.read()
server.stop()
