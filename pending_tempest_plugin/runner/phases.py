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
down or stop a compute, or take a cell down) apart from every other class
with an interprocess reader/writer lock: the serial class takes it to
write, any other class to read.  The lock does not queue a writer
before later readers, so a worker that reaches a serial class waits until
the other workers have run every class they were given, idle all that
time (measured on the embedded cloud: doc/source/data/code-timings.yaml,
runner_phases).

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

The parallel phase splits its classes between the workers by the weights
of ``class_weights.yaml`` (seconds each class took on the embedded cloud,
class setup included), heaviest first onto the lightest worker, through
Tempest's ``--worker-file``.  stestr would split by the times its
repository recorded, which a new workspace does not have (it then deals
the classes out blindly, one worker busy far longer than the other;
measured: doc/source/data/code-timings.yaml, runner_phases) and which a
run where the classes skipped or failed at once leaves wrong.  ``--weights
FILE`` (repeatable) adds the weights of another suite's classes (the
embedded cloud's functional stage gives the upstream Tempest subset's this
way).  When a class has no weight, stestr splits as usual.
"""

import argparse
import importlib
import os
import re
import subprocess
import sys
import tempfile

WEIGHTS_FILE = os.path.join(os.path.dirname(__file__), 'class_weights.yaml')


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


def class_id(test_id):
    """``pkg.module.Class.test_name[id-...,tags]`` -> ``pkg.module.Class``."""
    return test_id.split('[', 1)[0].rsplit('.', 1)[0]


def load_weights(path=WEIGHTS_FILE):
    """{class id: seconds} of ``class_weights.yaml``."""
    import yaml

    with open(path) as f:
        data = yaml.safe_load(f) or {}
    if not isinstance(data, dict):
        raise ValueError('not a mapping of class id to seconds')
    return {str(k): float(v) for k, v in data.items()}


def balance(test_ids, workers, weights):
    """The classes of ``test_ids`` in ``workers`` groups of even weight.

    Heaviest class first, each onto the lightest group (ties: the first);
    a list of (weight, [class ids]) without the empty groups, or None when
    a class has no weight.
    """
    classes = []
    for test_id in test_ids:
        if class_id(test_id) not in classes:
            classes.append(class_id(test_id))
    if not classes or any(c not in weights for c in classes):
        return None
    groups = [[0.0, []] for _ in range(workers)]
    for name in sorted(classes, key=lambda c: (-weights[c], c)):
        lightest = min(groups, key=lambda g: g[0])
        lightest[0] += weights[name]
        lightest[1].append(name)
    return [(round(w, 1), names) for w, names in groups if names]


def measure_weights(streams):
    """{class id: seconds} from subunit v2 streams (file objects).

    A class's seconds: its tests' own time plus the gap before its first
    test on its worker (its class setup, and the previous class's
    teardown); the first class of a worker, or of a phase (a run of this
    module is a serial then a parallel phase, whose workers both start at
    worker-0), gets the median gap instead; the most over the streams.
    Give each run's stream once (``results.subunit`` of ``pending-conformance
    run``, or a phase's own): ``stestr last`` re-tags a loaded run.
    """
    import statistics

    import subunit
    import testtools

    by_worker = {}
    for index, stream in enumerate(streams):
        def on_test(test, index=index):
            if None not in test['timestamps']:
                worker = ([t for t in test['tags']
                           if t.startswith('worker')] or [''])[0]
                by_worker.setdefault((index, worker), []).append(test)
        result = testtools.StreamToDict(on_test)
        result.startTestRun()
        subunit.ByteStreamToStreamResult(
            stream, non_subunit_name='stdout').run(result)
        result.stopTestRun()
    seen, gaps = [], []
    for run in by_worker.values():
        run.sort(key=lambda t: t['timestamps'][0])
        previous_end, name, body, gap, serial = None, None, 0.0, None, None
        for test in run + [None]:
            name_now = None if test is None else class_id(
                re.sub(r'^setUpClass \((.*)\)$', r'\1.x', test['id']))
            if name_now != name and name is not None:
                seen.append((name, body, gap))
            if test is None:
                break
            start, end = test['timestamps']
            if name_now != name:
                now_serial = is_serial(name_now + '.x')
                if now_serial != serial:
                    # Another phase: its first class's gap is not its own.
                    serial, previous_end = now_serial, None
                gap = None if previous_end is None else max(
                    0.0, (start - previous_end).total_seconds())
                if gap is not None:
                    gaps.append(gap)
                name, body = name_now, 0.0
            body += (end - start).total_seconds()
            previous_end = end
    median = statistics.median(gaps) if gaps else 0.0
    weights = {}
    for name, body, gap in seen:
        seconds = round(body + (median if gap is None else gap), 1)
        weights[name] = max(weights.get(name, 0.0), seconds)
    return weights


def worker_file_text(groups):
    """Tempest's worker file (YAML): each group's classes, anchored."""
    lines = []
    for _, names in groups:
        lines.append('- worker:')
        lines.extend("  - '^%s\\.'" % re.escape(name).replace("'", "''")
                     for name in names)
    return '\n'.join(lines) + '\n'


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


def run_phase(tempest, args, cwd, label, test_ids, concurrency,
              groups=None):
    """``tempest run ARGS`` of exactly ``test_ids``: (exit status, stream).

    ``groups`` (from :func:`balance`): each worker's classes, given to
    Tempest as a worker file.
    """
    fd, load_list = tempfile.mkstemp(prefix='pending-%s-' % label)
    made = [load_list]
    try:
        with os.fdopen(fd, 'w') as f:
            f.write('\n'.join(test_ids) + '\n')
        cmd = ([tempest, 'run', '--concurrency', str(concurrency)]
               + list(args) + ['--load-list', load_list])
        if groups:
            fd, workers = tempfile.mkstemp(prefix='pending-workers-',
                                           suffix='.yaml')
            made.append(workers)
            with os.fdopen(fd, 'w') as f:
                f.write(worker_file_text(groups))
            cmd += ['--worker-file', workers]
        print('pending-conformance: %s phase, %d test(s), %d worker(s)%s: '
              '%s' % (label, len(test_ids), concurrency,
                      ' (classes split by weight: %s s)' % ' + '.join(
                          '%.0f' % w for w, _ in groups) if groups else '',
                      ' '.join(cmd)), flush=True)
        return _recorded(cmd, cwd)
    finally:
        for path in made:
            os.remove(path)


def all_weights(paths=()):
    """The suite's class weights, and those of the files ``paths`` over them.

    ValueError naming the file when one cannot be read or is not a mapping
    of class ids to seconds.
    """
    weights = load_weights()
    for path in paths:
        try:
            weights.update(load_weights(path))
        except Exception as e:   # OSError, YAMLError, a bad value
            raise ValueError('class weights %s: %s' % (path, e))
    return weights


def signal(path):
    """Create the file ``path`` (``run``'s ``serial_done``); None: nothing."""
    if path:
        with open(path, 'w') as f:
            f.write('the serial phase has ended\n')


def run(args, concurrency=2, cwd='.', tempest=None, weights=None,
        serial_done=None):
    """``tempest run ARGS`` in two phases: (exit status, subunit v2 stream).

    With no test selected, plain ``tempest run ARGS`` decides what that
    means, as before.  ``weights``: {class id: seconds} for the parallel
    phase's split (default: the suite's, :func:`load_weights`).
    ``serial_done``: a file created once no serial class runs any more
    (after the serial phase, at once when there is none, at the latest
    when the run ends): another run on the same cloud may start then.
    """
    try:
        return _run(args, concurrency, cwd, tempest, weights, serial_done)
    finally:
        signal(serial_done)


def _run(args, concurrency, cwd, tempest, weights, serial_done):
    if weights is None:
        weights = load_weights()
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
        groups = balance(tests, workers, weights) \
            if workers > 1 else None
        if label == 'parallel':
            signal(serial_done)
        rc, got = run_phase(tempest, args, cwd, label, tests, workers,
                            groups)
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
    parser.add_argument('--weights-from', nargs='+', metavar='SUBUNIT',
                        help='print the class weights these runs\' '
                             'subunit v2 streams measure (class_weights.'
                             'yaml) and exit')
    parser.add_argument('--weights', action='append', default=[],
                        metavar='FILE',
                        help='more class weights (YAML, as class_weights.'
                             'yaml), for another suite\'s classes; '
                             'repeatable')
    known, rest = parser.parse_known_args(argv)
    if known.weights_from:
        streams = [open(path, 'rb') for path in known.weights_from]
        try:
            weights = measure_weights(streams)
        finally:
            for stream in streams:
                stream.close()
        for name in sorted(weights):
            print('%s: %s' % (name, weights[name]))
        return 0
    try:
        weights = all_weights(known.weights)
    except ValueError as e:
        print('pending-conformance: %s' % e, file=sys.stderr)
        return 2
    try:
        status = run(rest, known.concurrency, tempest=known.tempest,
                     weights=weights)[0]
    except RuntimeError as e:
        print('pending-conformance: %s' % e, file=sys.stderr)
        return 2
    return status


if __name__ == '__main__':
    sys.exit(main())
