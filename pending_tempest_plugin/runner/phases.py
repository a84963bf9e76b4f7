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
"""The two phases of ``pending-conformance run``: serial, then parallel.

Tempest keeps a ``serial`` class (here: the classes that disable, force
down or stop a compute) apart from every other class with an interprocess
reader/writer lock: the serial class takes it to write, any other class to
read.  The lock does not queue a writer before later readers, so a worker
that reaches a serial class waits until the other workers have run every
class they were given, idle all that time; measured on the embedded cloud,
one of two workers waited 195 s of a 404 s run.

So the runner lists the tests the run selects, runs the ones of serial
classes first with one worker, then the others with every worker.  Tempest's
lock still applies inside each phase; nothing else changes.  Whether a
class is serial is read from the class itself (Tempest's
``is_serial_execution_requested``), never from a list kept here.

``python -m pending_tempest_plugin.runner.phases [--tempest CMD]
[--concurrency N] TEMPEST-RUN-ARGS...`` is ``tempest run TEMPEST-RUN-ARGS``
in the current directory (a Tempest workspace) in those two phases: the
arguments select the tests (``--regex``, ``--exclude-regex``,
``--config-file``...) and each phase adds ``--load-list``.  When both
phases ran, their streams are loaded into stestr's repository as one run,
so ``stestr last`` shows the whole run; the exit status is the first
failing phase's, else 0.
"""

import argparse
import importlib
import os
import subprocess
import sys
import tempfile


def test_class(test_id):
    """The class of a listed test id, or None when it cannot be imported.

    ``pkg.module.Class.test_name[id-...,tags]`` -> ``pkg.module.Class``.
    """
    name = test_id.split('[', 1)[0]
    parts = name.split('.')
    if len(parts) < 3:
        return None
    module_name, class_name = '.'.join(parts[:-2]), parts[-2]
    try:
        module = importlib.import_module(module_name)
    except Exception:
        # Tempest reports the import error when it runs the test.
        return None
    return getattr(module, class_name, None)


def is_serial(test_id):
    cls = test_class(test_id)
    check = getattr(cls, 'is_serial_execution_requested', None)
    return bool(check and check())


def split(test_ids):
    """(ids of serial classes, the other ids), each in the listed order."""
    serial, parallel = [], []
    for test_id in test_ids:
        (serial if is_serial(test_id) else parallel).append(test_id)
    return serial, parallel


def _venv_command(name):
    here = os.path.join(os.path.dirname(sys.executable), name)
    return here if os.access(here, os.X_OK) else name


def next_run_id(stestr):
    try:
        with open(os.path.join(stestr, 'next-stream')) as f:
            return f.read().strip()
    except OSError:
        return '0'


def _stream(stestr, run_id):
    """The subunit v2 stream of stestr's run ``run_id``, or b''."""
    from stestr.repository import util as stestr_util

    if not os.path.isfile(os.path.join(stestr, run_id)):
        return b''
    repo = stestr_util.get_repo_open(repo_url=os.path.dirname(stestr))
    return repo.get_test_run(run_id).get_subunit_stream().read()


def list_tests(tempest, args, cwd):
    """The ids ``tempest run ARGS`` selects in the workspace ``cwd``.

    ``tempest run`` creates stestr's repository on its first run, but its
    ``--list-tests`` needs one: a workspace that never ran gets it here.
    """
    if (os.path.isfile(os.path.join(cwd, '.stestr.conf'))
            and not os.path.isdir(os.path.join(cwd, '.stestr'))):
        init = subprocess.run([_venv_command('stestr'), 'init'], cwd=cwd,
                              capture_output=True, text=True)
        if init.returncode != 0:
            raise RuntimeError('stestr init failed (exit %d): %s'
                               % (init.returncode,
                                  (init.stderr or init.stdout).strip()))
    listed = subprocess.run([tempest, 'run', '--list-tests'] + list(args),
                            cwd=cwd, capture_output=True, text=True)
    if listed.returncode != 0:
        raise RuntimeError('tempest run --list-tests failed (exit %d): %s'
                           % (listed.returncode,
                              (listed.stderr or listed.stdout).strip()))
    return [line.strip() for line in listed.stdout.splitlines()
            if line.strip()]


def _recorded(cmd, cwd):
    """Run ``cmd`` (a ``tempest run``): (exit status, its run's stream).

    The stream is of the run stestr numbered when ``cmd`` started, or b''
    when ``cmd`` recorded no run (an earlier run's stream never stands in
    for it).
    """
    stestr = os.path.join(cwd, '.stestr')
    run_id = next_run_id(stestr)
    rc = subprocess.run(cmd, cwd=cwd).returncode
    sys.stdout.flush()
    if next_run_id(stestr) == run_id:
        return rc, b''
    return rc, _stream(stestr, run_id)


def run_phase(tempest, args, cwd, label, test_ids, concurrency):
    """``tempest run ARGS`` of exactly ``test_ids``: (exit status, stream)."""
    fd, load_list = tempfile.mkstemp(prefix='pending-%s-' % label)
    try:
        with os.fdopen(fd, 'w') as f:
            f.write('\n'.join(test_ids) + '\n')
        cmd = ([tempest, 'run', '--concurrency', str(concurrency)]
               + list(args) + ['--load-list', load_list])
        print('pending-conformance: %s phase, %d test(s), %d worker(s): %s'
              % (label, len(test_ids), concurrency, ' '.join(cmd)),
              flush=True)
        return _recorded(cmd, cwd)
    finally:
        os.remove(load_list)


def run(args, concurrency=2, cwd='.', tempest=None):
    """``tempest run ARGS`` in two phases: (exit status, subunit v2 stream).

    With no test selected, plain ``tempest run ARGS`` decides what that
    means, as before.
    """
    tempest = tempest or _venv_command('tempest')
    cwd = os.path.abspath(cwd)
    test_ids = list_tests(tempest, args, cwd)
    if not test_ids:
        return _recorded([tempest, 'run', '--concurrency', str(concurrency)]
                         + list(args), cwd)
    serial, parallel = split(test_ids)
    print('pending-conformance: %d test(s) selected: %d of serial classes '
          'first, with one worker, then %d with %d'
          % (len(test_ids), len(serial), len(parallel), concurrency),
          flush=True)
    status, stream, phases = 0, b'', 0
    for label, tests, workers in (('serial', serial, 1),
                                  ('parallel', parallel, concurrency)):
        if not tests:
            continue
        rc, got = run_phase(tempest, args, cwd, label, tests, workers)
        status = status or rc
        stream += got
        phases += 1
    if phases > 1 and stream:
        # One run in stestr's repository, so `stestr last` is all of it.
        # (Its exit status is 1 when a loaded test failed: whether it
        # stored the run is read from the repository.)
        stestr = os.path.join(cwd, '.stestr')
        before = next_run_id(stestr)
        loaded = subprocess.run([_venv_command('stestr'), 'load'],
                                input=stream, cwd=cwd,
                                capture_output=True)
        if next_run_id(stestr) == before:
            print('pending-conformance: stestr load of the two phases '
                  'failed (exit %d): %s' % (
                      loaded.returncode,
                      loaded.stderr.decode(errors='replace').strip()),
                  file=sys.stderr)
            status = status or 2
    return status, stream


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m pending_tempest_plugin.runner.phases',
        allow_abbrev=False,
        description='tempest run ARGS: serial classes first, with one '
                    'worker, then the others.')
    parser.add_argument('--tempest', help='the tempest command (default: '
                                          'this virtualenv\'s)')
    parser.add_argument('--concurrency', type=int, default=2)
    known, rest = parser.parse_known_args(argv)
    try:
        status = run(rest, known.concurrency,
                     tempest=known.tempest)[0]
    except RuntimeError as e:
        print('pending-conformance: %s' % e, file=sys.stderr)
        return 2
    return status


if __name__ == '__main__':
    sys.exit(main())
