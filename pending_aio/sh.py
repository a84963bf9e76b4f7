# Copyright 2026 The pending-tempest-plugin Authors.
#
#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.
"""What every stage shares (once tools/lib.sh): commands run as bash would.

The stages (``functional``, ``functional-plugin``, ``functional-runner``,
``functional-bad-input``, ``conformance``, ``bench-aio``, ``bench-suite``)
run with the tox venv's python: this module needs the standard library
only, and runs what needs openstacksdk as ``python -m pending_aio SUB``
with the embedded cloud's tools venv (:func:`pending_aio`).

A stage is written as a bash script under ``set -euo pipefail`` was: a
command that fails ends it with the command's exit status
(``SystemExit``), a check that fails prints ``functional: ...`` on stderr
and ends it with 1, and its :class:`Trap` runs at the end whatever
happened.  Every line is flushed before a command runs: the command's
output (Tempest's ``- Passed: N`` lines, which .ci/run counts) streams to
the same stdout, in order.
"""

import os
import re
import stat
import subprocess
import sys
import time
import traceback

from pending_aio import aio_dir
from pending_aio import python_path
from pending_aio import REPO
from pending_tempest_plugin.runner import phases


def setup():
    """The preamble: AIO_DIR and FUNCTIONAL_T0 exported for every child.

    The checkout comes off PYTHONPATH again: the children (Tempest,
    ansible-playbook, the tools venv's runner) see the environment the
    caller gave, as they did under bash; :func:`pending_aio` puts it back
    for ``python -m pending_aio`` only.
    """
    os.environ['AIO_DIR'] = aio_dir()
    os.environ['FUNCTIONAL_T0'] = (os.environ.get('FUNCTIONAL_T0')
                                   or str(int(time.time())))
    path = python_path(os.environ.get('PYTHONPATH'), checkout=False)
    if path:
        os.environ['PYTHONPATH'] = path
    else:
        os.environ.pop('PYTHONPATH', None)


def path(*names):
    """A path in $AIO_DIR, spelled as bash spells "$AIO_DIR/a/b"."""
    return '/'.join((aio_dir(),) + names)


def tools_python():
    """The embedded cloud's tools venv python (openstacksdk)."""
    return path('venvs', 'tools', 'bin', 'python')


def tempest_run_argv(*args, concurrency=2):
    """``tempest run ARGS`` of the cloud's workspace, in two phases.

    Serial classes first, with one worker, then the others
    (pending_tempest_plugin/runner/phases.py); ``stestr last`` is the whole
    run.  Run it with the workspace as ``cwd`` (``path('tempest')``, or a
    plane's).
    """
    return [tools_python(), '-m', 'pending_tempest_plugin.runner.phases',
            '--tempest', path('bin', 'tempest'), '--concurrency',
            str(concurrency)] + list(args)


def pending_conformance_argv(*args):
    """``pending-conformance ARGS`` with the tools venv."""
    return [tools_python(), '-m', 'pending_tempest_plugin.runner.cli'] + list(
        args)


def next_run_id():
    """The id stestr gives the next run of the cloud's workspace."""
    return phases.next_run_id(path('tempest', '.stestr'))


def last_run_to(subunit, ws=None):
    """``stestr last --subunit > SUBUNIT`` in a workspace of the cloud.

    ``ws``: default nova's own control services', .aio/tempest.
    """
    return run_to(subunit, [path('venvs', 'tools', 'bin', 'stestr'), 'last',
                            '--subunit'], check=False,
                  cwd=ws or path('tempest'))


def aio_cmd():
    """tools/aio, or AIO_CMD when set."""
    return os.environ.get('AIO_CMD') or os.path.join(REPO, 'tools', 'aio')


def echo(text, err=False):
    out = sys.stderr if err else sys.stdout
    out.write(text + '\n')
    out.flush()


def fail(prefix, message, code=1):
    """``echo "PREFIX: MESSAGE" >&2; exit CODE``."""
    echo('%s: %s' % (prefix, message), err=True)
    raise SystemExit(code)


def stage_line(text, now=None):
    """``== functional [N s]: TEXT``, N seconds since FUNCTIONAL_T0."""
    now = int(time.time()) if now is None else now
    return '== functional [%d s]: %s' % (
        now - int(os.environ['FUNCTIONAL_T0']), text)


def stage(text):
    echo(stage_line(text))


def _flush():
    sys.stdout.flush()
    sys.stderr.flush()


def _env(extra):
    if not extra:
        return None
    env = dict(os.environ)
    env.update(extra)
    return env


def start(argv, env=None, **kwargs):
    """A command started in the background (``COMMAND &``)."""
    _flush()
    return subprocess.Popen(argv, env=_env(env), **kwargs)


def stop(proc):
    """``kill PID 2>/dev/null || true`` of a background command, reaped."""
    if proc.poll() is None:
        proc.terminate()
    proc.wait()


def run(argv, check=True, env=None, **kwargs):
    """Run a command; its exit status.

    With ``check`` a failure ends the stage with that status (set -e).
    ``env``: variables set for this command only (``NAME=VALUE command``).
    Other keywords go to subprocess (stdout, stderr, stdin, cwd).
    """
    _flush()
    try:
        rc = subprocess.call(argv, env=_env(env), **kwargs)
    except OSError as exc:
        echo('%s: %s' % (argv[0], exc.strerror), err=True)
        rc = 127
    if check and rc:
        raise SystemExit(rc)
    return rc


def log_dir(log):
    """LOG's directory, made if missing (a first run has no $AIO_DIR/logs).

    0755, as the playbook's preflight makes it.
    """
    folder = os.path.dirname(log) or '.'
    if not os.path.isdir(folder):
        os.makedirs(folder, exist_ok=True)
        os.chmod(folder, 0o755)   # whatever the umask
    return log


def run_to(log, argv, mode='w', both=False, **kwargs):
    """``COMMAND > LOG`` (``2>&1`` too with ``both``); its exit status."""
    with open(log_dir(log), mode) as f:
        if both:
            kwargs['stderr'] = subprocess.STDOUT
        return run(argv, stdout=f, **kwargs)


def output(argv, check=True, env=None, **kwargs):
    """``$(COMMAND)``: its stdout without the trailing newlines."""
    _flush()
    proc = subprocess.run(argv, env=_env(env), stdout=subprocess.PIPE,
                          text=True, **kwargs)
    if check and proc.returncode:
        raise SystemExit(proc.returncode)
    return proc.stdout.rstrip('\n')


def tee(log, argv, **kwargs):
    """``COMMAND | tee LOG`` under pipefail: streamed; the command's status.

    Only stdout goes through the pipe (stderr stays the stage's).
    """
    _flush()
    env = _env(kwargs.pop('env', None))
    with open(log_dir(log), 'wb') as f:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, env=env,
                                **kwargs)
        out = sys.stdout.buffer
        for chunk in iter(lambda: proc.stdout.read1(65536), b''):
            f.write(chunk)
            out.write(chunk)
            out.flush()
        return proc.wait()


def pending_aio_env():
    """The environment of ``python -m pending_aio`` with the tools venv."""
    env = {'OS_CLIENT_CONFIG_FILE': (os.environ.get('OS_CLIENT_CONFIG_FILE')
                                     or path('clouds.yaml'))}
    env['PYTHONPATH'] = python_path(os.environ.get('PYTHONPATH'),
                                    checkout=True)
    return env


def pending_aio_argv(*args):
    return [tools_python(), '-m', 'pending_aio'] + list(args)


def pending_aio(*args, **kwargs):
    """``python -m pending_aio ARGS`` with the tools venv (lib.sh's).

    The checkout on python's path; against the cloud's clouds.yaml unless
    OS_CLIENT_CONFIG_FILE says otherwise.  Keywords as :func:`run`.
    """
    env = pending_aio_env()
    env.update(kwargs.pop('env', None) or {})
    return run(pending_aio_argv(*args), env=env, **kwargs)


def pending_aio_output(*args, **kwargs):
    env = pending_aio_env()
    env.update(kwargs.pop('env', None) or {})
    return output(pending_aio_argv(*args), env=env, **kwargs)


def substage(name, env=None):
    """Another stage, ``python -m pending_aio NAME``, with this python."""
    extra = {'PYTHONPATH': python_path(os.environ.get('PYTHONPATH'),
                                       checkout=True)}
    extra.update(env or {})
    return run([sys.executable, '-m', 'pending_aio', name], env=extra)


def no_process_left(prefix):
    """``pgrep -af AIO_DIR`` after ``down``: fail naming any process."""
    left = output(['pgrep', '-af', aio_dir()], check=False)
    if left:
        echo('%s: processes left after down:' % prefix, err=True)
        echo(left, err=True)
        raise SystemExit(1)


def aio(*args, **kwargs):
    """``"$aio" ARGS``: tools/aio or AIO_CMD.  Keywords as :func:`run`."""
    return run([aio_cmd()] + list(args), **kwargs)


def read_lines(log):
    """The lines of a file as bytes (a log may hold any byte)."""
    with open(log, 'rb') as f:
        lines = f.read().split(b'\n')
    return lines[:-1] if lines[-1] == b'' else lines


def grep(pattern, log, fixed=False):
    """The lines of LOG that match PATTERN.

    None (grep's message printed) if LOG cannot be read.  ``pattern``: a
    Python regular expression, or a fixed string with ``fixed``.
    """
    try:
        lines = read_lines(log)
    except OSError as exc:
        echo('grep: %s: %s' % (log, exc.strerror), err=True)
        return None
    if fixed:
        needle = pattern.encode()
        return [line for line in lines if needle in line]
    regex = re.compile(pattern.encode())
    return [line for line in lines if regex.search(line)]


def grep_q(pattern, log, fixed=False):
    """``grep -q``: 0 if a line matches, 1 if none, 2 if LOG is unreadable."""
    found = grep(pattern, log, fixed)
    return 2 if found is None else (0 if found else 1)


def need(pattern, log, fixed=False):
    """``grep -q PATTERN LOG`` under set -e: no match ends the stage."""
    rc = grep_q(pattern, log, fixed)
    if rc:
        raise SystemExit(rc)


FAILED = re.compile(rb'^\{\d+\} (\S+) .*\.\.\. FAILED$')
ERROR_LINE = re.compile(rb'^ *[A-Za-z_.]*(Error|Exception|Exit)\b.*?: ')


def failure_digest(log, limit=8):
    """Each failed test of a stestr LOG: its id and its error's first lines.

    The test's ``... FAILED`` line, then the traceback's last exception
    line and what follows it up to the blank line (``limit`` lines at
    most): enough to say what failed when only the end of a long output
    survives (a CI's tail shows the last test's captured logging).
    """
    lines = read_lines(log)
    digest = []
    for i, line in enumerate(lines):
        match = FAILED.match(line)
        if not match:
            continue
        digest.append(b'FAILED ' + match.group(1))
        error = None
        for j in range(i + 1, len(lines)):
            if FAILED.match(lines[j]) or lines[j].startswith(
                    b'Captured pythonlogging'):
                break
            if ERROR_LINE.match(lines[j]):
                error = j
        if error is not None:
            for text in lines[error:error + limit]:
                if not text.strip():
                    break
                digest.append(b'    ' + text.strip()[:300])
    return digest


def failures_file():
    """The stage's failures file (:func:`record_failures` appends to it)."""
    return path('logs', 'failed-tests.txt')


def record_failures(log):
    """Append LOG's :func:`failure_digest` to the stage's failures file.

    The functional stage prints that file last when it fails.
    """
    digest = failure_digest(log)
    if digest:
        with open(log_dir(failures_file()), 'ab') as f:
            f.write(('in %s:\n' % log).encode())
            f.write(b''.join(line + b'\n' for line in digest))


def write_lines(lines, err=False):
    out = sys.stderr if err else sys.stdout
    out.flush()
    for line in lines:
        if hasattr(out, 'buffer'):
            out.buffer.write(line + b'\n')
        else:
            out.write(line.decode(errors='replace') + '\n')
    out.flush()
    if hasattr(out, 'buffer'):
        out.buffer.flush()


def sed(src, dst, *edits):
    """``sed`` of whole lines: DST is SRC with ``edits`` applied.

    Each (PATTERN, REPLACEMENT) of ``edits`` applies in turn, line by line
    (re.MULTILINE: ``^`` and ``$`` are a line's ends; a REPLACEMENT of ''
    with a PATTERN ending in ``\\n?`` deletes the line).  DST gets SRC's
    permissions, whatever the umask: a copy of a tempest.conf holds its
    passwords.
    """
    with open(src) as f:
        text = f.read()
    for pattern, replacement in edits:
        text = re.sub(pattern, replacement, text, flags=re.MULTILINE)
    mode = stat.S_IMODE(os.stat(src).st_mode)
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    # An existing DST keeps its mode through O_CREAT: set it first.
    os.fchmod(fd, mode)
    with os.fdopen(fd, 'w') as f:
        f.write(text)


def delete_line(prefix):
    """The ``sed`` edit of ``/^PREFIX/d``."""
    return ('^%s.*\n?' % re.escape(prefix), '')


def exit_code(exc):
    """The exit status of a SystemExit, as the interpreter gives it."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    echo(str(exc.code), err=True)
    return 1


class Trap(object):
    """``trap ACTION EXIT``: ``action(rc)`` runs when the stage ends."""

    def __init__(self, action=None):
        self.action = action

    def set(self, action):
        self.action = action

    def clear(self):
        self.action = None


def run_stage(body, trap=None):
    """Run ``body()`` as a bash stage; its exit status.

    SystemExit ends it with its status, any other exception with 1 (its
    traceback printed).  Then the trap's action runs with the status; what
    it returns (an int) is the stage's status if not None, and a command
    of the trap that fails (SystemExit) gives its status, as bash's errexit
    in a trap does.
    """
    try:
        body()
        rc = 0
    except SystemExit as exc:
        rc = exit_code(exc)
    except KeyboardInterrupt:
        rc = 130
    except Exception:
        _flush()
        traceback.print_exc()
        rc = 1
    if trap is not None and trap.action is not None:
        action, trap.action = trap.action, None
        try:
            new = action(rc)
            rc = rc if new is None else new
        except SystemExit as exc:
            rc = exit_code(exc)
    _flush()
    return rc


class stdin_null(object):
    """``... < /dev/null``: every command run inside reads /dev/null."""

    def __enter__(self):
        self.saved = os.dup(0)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)

    def __exit__(self, *exc):
        os.dup2(self.saved, 0)
        os.close(self.saved)
