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
"""Misbehaving clouds on demand: mutants of the embedded cloud's nova.

A conformance test that cannot fail proves nothing.  Each mutant is a
small, deliberate bug in the reference nova installed in the embedded cloud
(one edit of one file in the services' venv, then a restart of the programs
that load it).  The mutants are defined beside the series they break, in
``reference/nova/mutants/mutants.py`` (loaded by its path: :data:`MUTANTS`,
:data:`BATCHES`, :data:`EXEMPT`); this module is the machinery.
``functional-plugin`` (plugin_legs.py) applies them batch by batch, runs
the tests named for them, requires them to fail with the named message,
and restores nova.

    python -m pending_aio mutant list [--batches]
    python -m pending_aio mutant show NAME FIELD  # tests, message, ...
    python -m pending_aio mutant apply [--replace] NAME...
    python -m pending_aio mutant tests NAME...     # the regex of their tests
    python -m pending_aio mutant verdict --subunit F --results F NAME...
    python -m pending_aio mutant matrix --results F --out-dir D [--partial]
    python -m pending_aio mutant restore          # undo whatever is applied

The original file is kept in ``$AIO_DIR/state/mutant/`` while a mutant is
applied; ``restore`` puts it back byte for byte.  ``apply`` refuses when
another mutant is applied or when the text to change is not found exactly
once (the series changed: the mutant must be updated).
"""

import argparse
import datetime
import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request

from pending_aio import aio_dir
from pending_aio import checks
from pending_aio.cloud import control as cloud
from pending_aio import REPO

DEFINITIONS_PATH = os.path.join(REPO, 'reference', 'nova', 'mutants',
                                'mutants.py')


def load_definitions(path=DEFINITIONS_PATH):
    """The module of mutant definitions (a data file, loaded by its path)."""
    spec = importlib.util.spec_from_file_location('nova_mutants', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DEFINITIONS = load_definitions()
MUTANTS = DEFINITIONS.MUTANTS
BATCHES = DEFINITIONS.BATCHES
EXEMPT = DEFINITIONS.EXEMPT


def site_packages():
    found = glob.glob(os.path.join(aio_dir(), 'venvs', 'openstack', 'lib',
                                   'python3*', 'site-packages'))
    if not found:
        sys.exit('nova_mutant: no services venv under %s (tox -e aio first)'
                 % aio_dir())
    return found[0]


def state_dir():
    return os.path.join(aio_dir(), 'state', 'mutant')


def applied():
    try:
        with open(os.path.join(state_dir(), 'applied.json')) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def drop_bytecode(path):
    base = os.path.splitext(os.path.basename(path))[0]
    for pyc in glob.glob(os.path.join(os.path.dirname(path), '__pycache__',
                                      base + '.*.pyc')):
        os.unlink(pyc)


def computes_up(since):
    """Whether every nova-compute is up with a heartbeat after ``since``.

    :param since: a naive UTC datetime, as os-services writes them
    """
    found = subprocess.run(
        [os.path.join(aio_dir(), 'bin', 'openstack'), '--os-cloud',
         'aio-admin', 'compute', 'service', 'list', '--service',
         'nova-compute', '-f', 'json', '-c', 'State', '-c', 'Updated At'],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if found.returncode:
        return False
    services = json.loads(found.stdout or '[]')
    fresh = [s['State'] == 'up' and bool(s['Updated At'])
             and datetime.datetime.fromisoformat(s['Updated At']) > since
             for s in services]
    return bool(fresh) and all(fresh)


def nova_apis(conf=None):
    """{program: URL} of the nova-api programs the mutant batches use.

    nova-api and the nova-api of each other host_status policy profile
    (``nova-api-<profile>``), read from the supervisord programs the cloud
    runs (their gunicorn ``-b HOST:PORT``).  Not a control plane's
    (``nova-api-<plane>`` beside its own ``nova-conductor-<plane>``): the
    mutant batches run on the default cloud's workspace, which no plane
    serves, so a mutant of nova-api, nova-conductor or nova-scheduler
    restarts nova's own programs and the profiles' APIs only.  That holds
    while nothing restarts a plane's nova-api with a mutant applied (it
    would load the mutant and keep it after the restore): no profile or
    mutant step changes a plane's programs.
    """
    conf = conf or os.path.join(aio_dir(), 'etc', 'supervisor', 'conf.d',
                                'services.conf')
    try:
        with open(conf) as f:
            text = f.read()
    except OSError:
        return {'nova-api': 'http://127.0.0.1:8774/'}
    planes = set(re.findall(r'(?m)^\[program:nova-conductor-([\w-]+)\]',
                            text))
    found = {}
    for name, body in re.findall(
            r'(?ms)^\[program:(nova-api(?:-[\w-]+)?)\]\n(.*?)(?=^\[|\Z)',
            text):
        bind = re.search(r'\s-b\s+(\S+)', body)
        if bind and name[len('nova-api-'):] not in planes:
            found[name] = 'http://%s/' % bind.group(1)
    return found or {'nova-api': 'http://127.0.0.1:8774/'}


def restart(programs):
    apis = {}
    if 'nova-api' in programs:
        # A mutant of nova-api's code is every nova-api's: the profile
        # endpoints serve the same nova.
        apis = nova_apis()
        programs = programs + sorted(p for p in apis if p not in programs)
    ctl = os.path.join(aio_dir(), 'bin', 'supervisorctl')
    subprocess.run([ctl, 'restart'] + programs, check=True,
                   stdout=subprocess.DEVNULL)
    if 'nova-conductor' in programs:
        # The computes report through the conductor: while it restarts
        # they miss heartbeats and read "down" (the embedded cloud's
        # service_down_time is 12 s), and the scheduler's ComputeFilter
        # would refuse them to the tests.  Wait until they are up again.
        since = datetime.datetime.now(datetime.timezone.utc).replace(
            tzinfo=None)
        checks.wait_or_exit(
            'every nova-compute up after the nova-conductor restart',
            lambda: computes_up(since), 120, 2,
            'nova_mutant: the computes are not up 120 s after restarting '
            'nova-conductor; see %s/logs/' % aio_dir())
    for name, url in sorted(apis.items()):
        # Answering again, not only started.
        checks.wait_or_exit(
            '%s answering after its restart' % name,
            lambda url=url: answers(url), 60, 0.5,
            'nova_mutant: %s does not answer after its restart; see '
            '%s/logs/%s.log' % (name, aio_dir(), name))


def answers(url):
    try:
        urllib.request.urlopen(url, timeout=5)
    except OSError:
        return False
    return True


def spans(text, names):
    """The (start, end, name) of each mutant's text in ``text``, in order.

    Exits when a text does not occur exactly once or two texts overlap
    (mutants of one batch must change different lines).
    """
    found = []
    for name in names:
        old = MUTANTS[name]['old']
        count = text.count(old)
        if count != 1:
            sys.exit('nova_mutant: %s: the text to change occurs %d times in'
                     ' %s (expected once): update the mutant'
                     % (name, count, MUTANTS[name]['file']))
        start = text.index(old)
        found.append((start, start + len(old), name))
    found.sort()
    for (_, end, first), (start, _, second) in zip(found, found[1:]):
        if start < end:
            sys.exit('nova_mutant: %s and %s change the same lines of %s: '
                     'they cannot be applied together'
                     % (first, second, MUTANTS[first]['file']))
    return found


def put_back(current):
    """Copy back the original of every file ``current`` changed."""
    if 'paths' not in current:
        # Applied by the one-mutant version of this tool.
        shutil.copy2(os.path.join(state_dir(), 'original'), current['path'])
        drop_bytecode(current['path'])
        current['names'] = [current['name']]
        return
    for index, path in enumerate(current['paths']):
        shutil.copy2(os.path.join(state_dir(), 'original-%d' % index), path)
        drop_bytecode(path)


def cmd_apply(names, replace=False):
    """Apply the mutants ``names`` together (replacing the applied ones).

    With ``replace``, in place of the applied mutants, if any.

    Replacing puts the applied mutants' files back without restarting, then
    restarts once what either set touches: half the restarts of a restore
    and an apply (each nova-conductor restart costs the wait for the
    computes' heartbeats).
    """
    # nova no longer is what the last verdict's `up` installed.
    cloud.forget_up()
    if isinstance(names, str):
        names = [names]
    unknown = [n for n in names if n not in MUTANTS]
    if unknown:
        sys.exit('nova_mutant: no mutant %r (known: %s)'
                 % (unknown[0], ', '.join(sorted(MUTANTS))))
    current = applied()
    if current and not replace:
        sys.exit('nova_mutant: %s is applied; restore first'
                 % ' '.join(current['names']))
    programs = []
    for name in names:
        programs += [p for p in MUTANTS[name]['programs']
                     if p not in programs]
    if current:
        put_back(current)
        shutil.rmtree(state_dir())
        programs += [p for p in current['programs'] if p not in programs]
    by_file = {}
    for name in names:
        by_file.setdefault(MUTANTS[name]['file'], []).append(name)
    changed = {}
    for rel, file_names in sorted(by_file.items()):
        path = os.path.join(site_packages(), rel)
        with open(path) as f:
            text = f.read()
        # From the end, so that the earlier offsets stay valid.
        for start, end, name in reversed(spans(text, file_names)):
            text = text[:start] + MUTANTS[name]['new'] + text[end:]
        changed[path] = text
    os.makedirs(state_dir(), exist_ok=True)
    paths = sorted(changed)
    for index, path in enumerate(paths):
        shutil.copy2(path, os.path.join(state_dir(), 'original-%d' % index))
    with open(os.path.join(state_dir(), 'applied.json'), 'w') as f:
        json.dump({'names': names, 'paths': paths,
                   'programs': programs}, f)
    for path in paths:
        with open(path, 'w') as f:
            f.write(changed[path])
        drop_bytecode(path)
    restart(programs)
    for name in names:
        print('nova_mutant: applied %s (%s): %s' % (
            name, ', '.join(MUTANTS[name]['requirements']),
            MUTANTS[name]['what']))


def cmd_restore():
    current = applied()
    if not current:
        print('nova_mutant: nothing applied')
        return
    put_back(current)
    restart(current['programs'])
    shutil.rmtree(state_dir())
    print('nova_mutant: restored nova (%s undone)'
          % ' '.join(current['names']))


def batch_profile(names):
    """The host_status policy profile a batch runs under.

    The one its mutants need (at most one), else the default admin_only.
    """
    needed = {MUTANTS[n]['profile'] for n in names if MUTANTS[n].get(
        'profile')}
    if len(needed) > 1:
        sys.exit('nova_mutant: %s need different profiles'
                 % ' '.join(names))
    return needed.pop() if needed else 'admin_only'


def union_regex(names):
    """One regex matching the tests of every mutant of ``names``."""
    return '|'.join('(?:%s)' % MUTANTS[n]['tests'] for n in names)


def test_results(stream):
    """{test id: (status, failure text)} of a subunit v2 byte stream."""
    import subunit
    import testtools

    results = {}

    def record(test):
        text = ''.join(
            ''.join(content.iter_text())
            for content in test['details'].values()
            if content.content_type.type == 'text')
        results[test['id']] = (test['status'], text)

    case = testtools.StreamToDict(record)
    case.startTestRun()
    subunit.ByteStreamToStreamResult(stream, non_subunit_name='stdout').run(
        case)
    case.stopTestRun()
    return results


def verdict(name, results):
    """(caught, why) of mutant ``name`` from the batch's test results.

    Caught: at least one test of the mutant ran, every one of them failed,
    and their failure text contains the mutant's message.
    """
    mutant = MUTANTS[name]
    pattern = re.compile(mutant['tests'])
    mine = {t: r for t, r in results.items() if pattern.match(t)}
    if not mine:
        return False, 'none of its tests ran'
    passed = sorted(t for t, (status, _) in mine.items() if status != 'fail')
    if passed:
        return False, 'not failed: %s (%s)' % (
            ', '.join(t.split('.')[-1] for t in passed),
            ', '.join(mine[t][0] for t in passed))

    # pprint splits a long string of a list between two quoted parts.
    def said(text):
        return re.sub(r'[\'"]\n\s*[\'"]', '', text)

    message = mutant['message']
    if isinstance(message, dict):
        # Each test its own message: {a part of its name: the message}.
        for test, (_, text) in sorted(mine.items()):
            own = [m for part, m in message.items() if part in test]
            if not own:
                return False, 'no message for %s' % test.split('.')[-1]
            if own[0] not in said(text):
                return False, '%s failed without saying %r' % (
                    test.split('.')[-1].split('[')[0], own[0])
        return True, 'caught'
    text = said('\n'.join(t for _, t in mine.values()))
    if message not in text:
        return False, 'failed without saying %r' % message
    return True, 'caught'


def verified_requirements():
    """The ids of the catalogue's verified requirements, in its order."""
    import yaml

    path = os.path.join(REPO, 'pending_tempest_plugin', 'conformance',
                        'requirements.yaml')
    with open(path) as f:
        data = yaml.safe_load(f)
    return [r['id'] for r in data['requirements']
            if r['status'] == 'verified']


def kill_matrix(caught, partial=False):
    """(rows, ok) of the kill matrix from {mutant: (caught, why)}.

    One row (requirement, mutant, caught) per mutant of each verified
    requirement, a row without mutant for an exempted or uncovered one.
    ``ok`` is False when a mutant run was not caught or a verified
    requirement has neither mutant nor exemption, or, unless ``partial``
    (a run of some batches only), when a mutant did not run.
    """
    rows, ok = [], True
    for rid in verified_requirements():
        names = [n for n in MUTANTS if rid in MUTANTS[n]['requirements']]
        if not names:
            exempt = rid in EXEMPT
            ok = ok and exempt
            rows.append((rid, '-', 'exempt: %s' % EXEMPT[rid] if exempt
                         else 'NO MUTANT'))
        for name in names:
            if name not in caught:
                ok = ok and partial
                rows.append((rid, name, 'not run here' if partial
                             else 'NOT RUN'))
            else:
                rows.append((rid, name, 'yes' if caught[name][0]
                             else 'NO: %s' % caught[name][1]))
    return rows, ok


def cmd_verdict(subunit_path, names, results_path):
    """Decide each mutant of a batch; append the verdicts to results."""
    with open(subunit_path, 'rb') as f:
        results = test_results(f)
    ok = True
    with open(results_path, 'a') as out:
        for name in names:
            caught, why = verdict(name, results)
            ok = ok and caught
            print('-- mutant %s: %s' % (name, why))
            out.write(json.dumps({'name': name, 'caught': caught,
                                  'why': why}) + '\n')
    return ok


def cmd_matrix(results_path, out_dir, partial=False):
    caught = {}
    with open(results_path) as f:
        for line in f:
            entry = json.loads(line)
            caught[entry['name']] = (entry['caught'], entry['why'])
    rows, ok = kill_matrix(caught, partial)
    width = max(len(r[1]) for r in rows)
    lines = ['%-8s  %-*s  %s' % ('req', width, 'mutant', 'caught')]
    lines += ['%-8s  %-*s  %s' % (rid, width, name, result)
              for rid, name, result in rows]
    text = '\n'.join(lines) + '\n'
    print(text, end='')
    with open(os.path.join(out_dir, 'kill-matrix.txt'), 'w') as f:
        f.write(text)
    with open(os.path.join(out_dir, 'kill-matrix.json'), 'w') as f:
        json.dump([{'requirement': r, 'mutant': n, 'caught': c}
                   for r, n, c in rows], f, indent=1)
    return ok


def main(argv=None):
    checks.setup_logging()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest='cmd', required=True)
    listing = sub.add_parser('list')
    listing.add_argument('--batches', action='store_true',
                         help='one batch a line: its profile, then its '
                              'mutants')
    listing.add_argument('--two-cells', action='store_true',
                         help='the mutants whose tests need a cloud of two '
                              'cells')
    show = sub.add_parser('show')
    show.add_argument('name', choices=sorted(MUTANTS))
    show.add_argument('field', choices=['tests', 'message', 'requirement',
                                        'requirements', 'profile'])
    tests = sub.add_parser('tests', help='the regex of the tests of every '
                                         'mutant named')
    tests.add_argument('names', nargs='+', choices=sorted(MUTANTS))
    apply = sub.add_parser('apply')
    apply.add_argument('names', nargs='+')
    apply.add_argument('--replace', action='store_true',
                       help='in place of the applied mutants, if any')
    sub.add_parser('restore')
    judge = sub.add_parser('verdict', help='caught or not, per mutant of '
                                           'a batch (needs python-subunit)')
    judge.add_argument('--subunit', required=True)
    judge.add_argument('--results', required=True,
                       help='JSON lines file the verdicts are appended to')
    judge.add_argument('names', nargs='+', choices=sorted(MUTANTS))
    matrix = sub.add_parser('matrix', help='the kill matrix of the verdicts')
    matrix.add_argument('--results', required=True)
    matrix.add_argument('--out-dir', required=True)
    matrix.add_argument('--partial', action='store_true',
                        help='some batches only: a mutant not run is no '
                             'failure')
    args = parser.parse_args(argv)
    if args.cmd == 'list':
        if args.two_cells:
            for name in MUTANTS:
                if MUTANTS[name].get('cells', 1) > 1:
                    print(name)
        elif args.batches:
            for batch in BATCHES:
                print(' '.join([batch_profile(batch)] + batch))
        else:
            for name in MUTANTS:
                print(name)
    elif args.cmd == 'show':
        # profile: the host_status policy profile the cloud must run for
        # the tests to see the bug (empty: any).
        if args.field.startswith('requirement'):
            print(', '.join(MUTANTS[args.name]['requirements']))
        else:
            print(MUTANTS[args.name].get(args.field, ''))
    elif args.cmd == 'tests':
        print(union_regex(args.names))
    elif args.cmd == 'apply':
        cmd_apply(args.names, replace=args.replace)
    elif args.cmd == 'verdict':
        sys.exit(0 if cmd_verdict(args.subunit, args.names, args.results)
                 else 1)
    elif args.cmd == 'matrix':
        sys.exit(0 if cmd_matrix(args.results, args.out_dir, args.partial)
                 else 1)
    else:
        cmd_restore()
    return 0
