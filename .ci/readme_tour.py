#!/usr/bin/env python3
"""The README's tour runs as written: every shell block of README.md, against a fresh server.

What it does:

1. Extracts the README's fenced blocks marked as shell (three backticks then `sh`), in order.
2. Skips a block whose first line is the comment `# tour: skip (<reason>)`. The README skips two:
   the set-up commands (`cargo run --release -- serve` builds folio and starts a server on the
   default ports that would never return; this script starts its own, and `cargo test` is CI's
   own step) and the lines that read the default server's address and token (this script
   exports `API`, `OPS` and `TOKEN` for its server instead). A block that needs a cluster (several
   nodes on PostgreSQL), an outside network or a long benchmark must be marked the same way; the
   README has none. Only README.md runs: the commands in `docs/` are examples, not tested.
3. Starts `$CARGO_TARGET_DIR/debug/folio serve` (or `--folio PATH`) on a temporary data folder,
   SQLite, both listeners on ephemeral ports on 127.0.0.1 (`--listen 127.0.0.1:0
   --ops-listen 127.0.0.1:0`), reads the addresses from its "listening on http://…
   (operations on http://…)" log line and the token from `<data>/token`, which the first start
   writes. `FOLIO_*` variables of the caller's environment are not passed on.
4. Runs the blocks in one bash session (`set -euo pipefail`, so variables carry from block to
   block) in a temporary working folder, with `API`, `OPS` and `TOKEN` exported. curl is made
   to fail on an HTTP status of 400 or more (a `.curlrc` with `--fail-with-body` and
   `--show-error` under `CURL_HOME`), so any failing command, a refused request included,
   stops the run.
5. On failure prints the block, where it is in README.md, its output and exit status, and the
   end of the server's log, and exits 1. Exit 0 when every block ran.

Needs Python 3 (standard library only), bash, curl 7.76 or later, jq, and a built binary: it
builds nothing. Run from anywhere:

    python3 .ci/readme_tour.py [--folio PATH] [--readme PATH] [--timeout SECONDS] [--show] [--keep]
"""

import argparse
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE_OPEN = re.compile(r"^```sh\s*$")
FENCE_CLOSE = re.compile(r"^```\s*$")
SKIP = re.compile(r"^#\s*tour:\s*skip\b")
LISTENING = re.compile(r"listening on http://(\S+) \(operations on http://([^)\s]+)\)")


class Block:
    """One shell block of the README: its text and the line its fence opens on."""

    def __init__(self, line, text):
        self.line = line
        self.text = text

    @property
    def skipped(self):
        first = self.text.lstrip("\n").split("\n", 1)[0]
        return bool(SKIP.match(first))


def shell_blocks(readme):
    """The README's sh blocks, in order; an unclosed block is an error."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(readme.read_text(encoding="utf-8").split("\n"), 1):
        if current is None:
            if FENCE_OPEN.match(line):
                current, start = [], number
        elif FENCE_CLOSE.match(line):
            blocks.append(Block(start, "\n".join(current) + "\n"))
            current = None
        else:
            current.append(line)
    if current is not None:
        sys.exit(f"{readme}:{start}: a sh block is never closed")
    return blocks


def start_server(folio, data, log_path, timeout=60.0):
    """Starts `folio serve` on ephemeral loopback ports; returns (process, api, ops, token)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FOLIO_")}
    env["RUST_LOG"] = "info"
    log = open(log_path, "wb")
    process = subprocess.Popen(
        [str(folio), "serve", "--data", str(data),
         "--listen", "127.0.0.1:0", "--ops-listen", "127.0.0.1:0", "--log-format", "text"],
        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    token_file = data / "token"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log_path.read_text(encoding="utf-8", errors="replace")
        found = LISTENING.search(text)
        if found and token_file.is_file() and token_file.stat().st_size > 0:
            token = token_file.read_text(encoding="utf-8").strip()
            return process, "http://" + found.group(1), "http://" + found.group(2), token
        if process.poll() is not None:
            break
        time.sleep(0.1)
    stop_server(process)
    sys.exit("the server did not start:\n" + log_path.read_text(encoding="utf-8", errors="replace"))


def stop_server(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=35)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def tail(path, lines=40):
    text = path.read_text(encoding="utf-8", errors="replace").rstrip("\n").split("\n")
    return "\n".join(text[-lines:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    parser.add_argument("--folio", default=str(Path(target) / "debug" / "folio"),
                        help="the folio binary (default: $CARGO_TARGET_DIR/debug/folio)")
    parser.add_argument("--readme", default=str(ROOT / "README.md"))
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds the whole tour may take (default 600)")
    parser.add_argument("--show", action="store_true",
                        help="print every block's output, also when all pass")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary folder (data, working folder, logs)")
    args = parser.parse_args()

    folio, readme = Path(args.folio), Path(args.readme)
    if not os.access(folio, os.X_OK):
        sys.exit(f"no folio binary at {folio}: build it first (cargo build -p folio)")
    for tool in ("bash", "curl", "jq"):
        if shutil.which(tool) is None:
            sys.exit(f"the tour needs {tool}, which is not on PATH")

    blocks = shell_blocks(readme)
    run = [b for b in blocks if not b.skipped]
    if not run:
        sys.exit(f"{readme}: no sh block to run")

    tmp = Path(tempfile.mkdtemp(prefix="folio-readme-tour-"))
    work, data, scripts = tmp / "work", tmp / "data", tmp / "blocks"
    for folder in (work, scripts):
        folder.mkdir()
    (scripts / ".curlrc").write_text("--fail-with-body\n--show-error\n")
    server_log = tmp / "server.log"
    started = time.monotonic()
    process, api, ops, token = start_server(folio, data, server_log)
    try:
        nonce = secrets.token_hex(8)
        driver = [
            "set -Eeuo pipefail",
            # Name the command that failed (its output is above it).
            """trap 'printf "\\n>> exit %s: %s\\n" "$?" "$BASH_COMMAND" >&2' ERR""",
            f"cd {sh_quote(work)}",
        ]
        for index, block in enumerate(run):
            path = scripts / f"block-{index}.sh"
            path.write_text(block.text, encoding="utf-8")
            driver.append(f"printf '\\n@@tour-{nonce} {index}\\n'")
            driver.append(f"source {sh_quote(path)}")
        driver.append(f"printf '\\n@@tour-{nonce} done\\n'")
        (scripts / "driver.sh").write_text("\n".join(driver) + "\n", encoding="utf-8")

        env = dict(os.environ, API=api, OPS=ops, TOKEN=token, CURL_HOME=str(scripts))
        for name in ("AUTH", "JSON", "ID", "JOB"):
            env.pop(name, None)
        try:
            result = subprocess.run(
                ["bash", "--noprofile", "--norc", str(scripts / "driver.sh")],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                env=env, timeout=args.timeout)
            output, status = result.stdout.decode("utf-8", "replace"), result.returncode
        except subprocess.TimeoutExpired as timeout:
            output = (timeout.stdout or b"").decode("utf-8", "replace")
            status = f"timeout after {args.timeout:.0f} s"

        # Split the session's output at the markers: each block's own output.
        outputs, current = {}, None
        for line in output.split("\n"):
            marker = re.fullmatch(rf"@@tour-{nonce} (\d+|done)", line)
            if marker:
                current = marker.group(1)
                outputs[current] = []
            elif current is not None:
                outputs[current].append(line)
        if args.show:
            for index, block in enumerate(run):
                print(f"== {readme.name}:{block.line}")
                print("\n".join(outputs.get(str(index), [])).strip("\n"))
        if "done" in outputs and status == 0:
            elapsed = time.monotonic() - started
            print(f"README tour: {len(run)} blocks ran, {len(blocks) - len(run)} skipped, "
                  f"all passed in {elapsed:.1f} s (folio at {api})")
            return 0

        failed = max((int(k) for k in outputs if k != "done"), default=0)
        block = run[failed]
        rule = "-" * 72
        print(f"README tour: FAILED in the block at {readme.name}:{block.line} "
              f"(block {failed + 1} of {len(run)} run), exit status {status}", file=sys.stderr)
        print(f"{rule}\n{block.text.rstrip()}\n{rule} its output:", file=sys.stderr)
        print("\n".join(outputs.get(str(failed), [output])).strip("\n"), file=sys.stderr)
        print(f"{rule} end of the server's log:\n{tail(server_log)}", file=sys.stderr)
        return 1
    finally:
        stop_server(process)
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def sh_quote(path):
    return "'" + str(path).replace("'", "'\\''") + "'"


if __name__ == "__main__":
    sys.exit(main())
