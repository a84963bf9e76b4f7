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
"""Benchmarks of the embedded cloud and of the conformance suite.

``python -m pending_aio bench-aio`` (``tox -e bench-aio``): the wall time
of each phase for a cold ``up`` (after ``down --purge``; Debian packages
and pip caches are kept unless BENCH_COLD_PACKAGES=1, "a machine that has
never run it": no packages, no venvs, and empty apt, uv, pip and nova
sdist caches) and a warm ``up`` that changes nothing, then the RSS of
every process of the cloud; BENCH_KEEP=DIR keeps what the runs wrote.

``python -m pending_aio bench-suite [--leg PLANE] [REGEX]`` (``tox -e
bench-suite``; default: the leg's tests, every test of the plugin for the
default cloud's leg): on the embedded cloud (brought up if needed), for
the default cloud's leg, or with ``--leg`` the leg of a control plane
(``pending-off``: its workspace, through its nova-api, alone on the
cloud): the cloud's own floor measured first
(``bench-floor``, pending_aio/bench/floor.py: time to ACTIVE, to PENDING, to
delete; with one client, then with as many at once as the suite has
workers), then the wall time of ``tempest run`` (class setup included),
the test outcome counts, the servers the tests boot, bury and delete,
the ratio of the wall time to the floor of those operations against the
2x target, and the time per requirement (``bench-report``,
pending_aio/bench/suite.py, which says how each figure is made).  Both
benchmarks print figures and assert nothing about them: bench-suite fails
only when ``tempest run`` does.

``python -m pending_aio bench-verdicts [N]`` (``tox -e bench-verdicts``;
N, else BENCH_VERDICTS, else 5): the full multi-leg verdict of ``tox -e
conformance`` N times in a row on one cloud, the first from the cloud as
it is.  It prints each run's wall time, merged verdict and every failure
(a failed row, a failed leg, a run that gave no verdict), each leg's
``up`` and ``run`` seconds, and the median per leg; it keeps each run's
log and merged report in $AIO_DIR/logs/bench-verdicts/.  Flakes are what
it looks for: it exits 1 when any run failed.

``python -m pending_aio bench DIR [LABEL...]`` (default labels: cold,
warm) reads, for each LABEL, what ``bench-aio`` wrote in DIR:
LABEL.jsonl (the playbook's per-task times, AIO_TIMINGS), LABEL.wall (the
start and end of the run) and LABEL.cpu (the busy and idle jiffies of
/proc/stat before and after), and prints the wall time of each phase of
that ``up`` and how busy the CPUs were.
"""

import collections
import configparser
import json
import os
import shutil
import subprocess
import tempfile
import time

from pending_aio.bench import suite as suitebench
from pending_aio import sh
from pending_aio.stages import conformance

PHASES = [
    ('package install', ('packages |',)),
    ('venv', ('python |',)),
    ('bootstrap', ('preflight |', 'supervisor |', 'mariadb |', 'rabbitmq |',
                   'ovn |', 'files |', 'bootstrap', 'db sync', 'db_sync',
                   'upgrade heads', 'nova-manage', 'service users',
                   'database schemas')),
    ('service start', ('running and answering', 'supervisor programs')),
    ('ready', ('seed |', 'registered', 'both compute hosts')),
]


def phase_totals(records):
    """{phase: seconds} of the playbook's task records (other tasks: out)."""
    totals = {name: 0.0 for name, _ in PHASES}
    for rec in records:
        for name, keys in PHASES:
            if any(k in rec['task'] for k in keys):
                totals[name] += rec['seconds']
                break
    return totals


def report(out, label):
    with open(os.path.join(out, label + '.wall')) as f:
        t0, t1 = map(float, f.read().split())
    with open(os.path.join(out, label + '.jsonl')) as f:
        totals = phase_totals(json.loads(line) for line in f)
    print('%s up: %.1f s wall' % (label, t1 - t0))
    for name, _ in PHASES:
        print('  %-16s %6.1f s' % (name, totals[name]))
    print('  %-16s %6.1f s' % ('ansible/other',
                               (t1 - t0) - sum(totals.values())))
    with open(os.path.join(out, label + '.cpu')) as f:
        (b0, i0), (b1, i1) = [map(int, line.split()) for line in f]
    print('  cpu busy %.0f%% (%.0f core-seconds)'
          % (100.0 * (b1 - b0) / ((b1 - b0) + (i1 - i0)),
             (b1 - b0) / os.sysconf('SC_CLK_TCK')))


def main(argv):
    if not argv:
        raise SystemExit('usage: python -m pending_aio bench DIR [LABEL...]')
    for label in argv[1:] or ['cold', 'warm']:
        report(argv[0], label)
    return 0


def cpu_busy():
    """"BUSY IDLE": the jiffies the machine's CPUs spent busy and idle."""
    with open('/proc/stat') as f:
        for line in f:
            if line.startswith('cpu '):
                j = [int(x) for x in line.split()[1:]]
                busy = j[0] + j[1] + j[2] + j[5] + j[6]
                return '%d %d\n' % (busy, j[3] + j[4])


def stamp():
    """``date +%s.%N``."""
    return '%d.%09d' % divmod(time.time_ns(), 10 ** 9)


def run_up(out, label):
    """A timed ``up``: LABEL.jsonl, .cpu, .wall and .log in OUT."""
    os.environ['AIO_TIMINGS'] = os.path.join(out, label + '.jsonl')
    open(os.environ['AIO_TIMINGS'], 'w').close()
    with open(os.path.join(out, label + '.cpu'), 'w') as f:
        f.write(cpu_busy())
    t0 = stamp()
    log = os.path.join(out, label + '.log')
    if sh.run_to(log, [sh.aio_cmd(), 'up'], both=True, check=False):
        sh.write_lines(sh.read_lines(log)[-40:])
        raise SystemExit(1)
    t1 = stamp()
    with open(os.path.join(out, label + '.cpu'), 'a') as f:
        f.write(cpu_busy())
    with open(os.path.join(out, label + '.wall'), 'w') as f:
        f.write('%s %s\n' % (t0, t1))


def bench_aio(out):
    sh.aio('down', '--purge', stdout=subprocess.DEVNULL)
    if (os.environ.get('BENCH_COLD_PACKAGES') or '0') == '1':
        cache = (os.environ.get('XDG_CACHE_HOME')
                 or os.path.expanduser('~/.cache'))
        sh.run(['rm', '-rf', sh.path('venvs'), sh.path('state'),
                sh.path('src'), cache + '/uv', cache + '/pip',
                cache + '/nova-reference'])
        sh.run(['apt-get', 'clean'])
        sh.run(['apt-get', 'purge', '-y', '-q', 'mariadb-server',
                'rabbitmq-server', 'memcached', 'ovn-central', 'ovn-host',
                'openvswitch-switch', 'qemu-utils'],
               stdout=subprocess.DEVNULL)
        sh.run(['apt-get', 'autoremove', '-y', '-q'],
               stdout=subprocess.DEVNULL)
    run_up(out, 'cold')
    run_up(out, 'warm')
    sh.aio('bench', out, 'cold', 'warm')
    sh.aio('rss')
    if os.environ.get('BENCH_KEEP'):
        sh.run(['cp', '-r', out, os.environ['BENCH_KEEP']])


def aio_main(argv):
    sh.setup()
    out = tempfile.mkdtemp()
    return sh.run_stage(lambda: bench_aio(out), sh.Trap(
        lambda rc: shutil.rmtree(out, ignore_errors=True)))


OUTCOME = r'^ - (Passed|Skipped|Failed|Expected Fail|Unexpected Success):'
CONCURRENCY = 2


def conf_value(section, name, leg=conformance.DEFAULT_LEG):
    """``[SECTION] NAME`` of a leg's tempest.conf; None if absent.

    By section: ``catalog_type`` is [compute]'s and [volume]'s alike.
    """
    parser = configparser.RawConfigParser(strict=False)
    parser.read(conformance.tempest_conf(leg))
    if parser.has_option(section, name):
        return parser.get(section, name).strip()
    return None


def measure_floor(work, concurrency=1, leg=conformance.DEFAULT_LEG):
    """bench-floor before the suite; the path of its JSON.

    ``concurrency``: the clients at once; through the compute endpoint of
    the leg's tempest.conf (a plane's nova-api for a plane's leg).  A
    floor that cannot be measured is said, and the suite still runs
    (bench-report prints no ratio without that file).
    """
    floor = os.path.join(work, 'floor-%d.json' % concurrency)
    rc = sh.pending_aio('bench-floor', '--samples',
                        os.environ.get('BENCH_FLOOR_SAMPLES') or '5',
                        '--pending-microversion',
                        conf_value('nova_conformance',
                                   'pending_state_microversion', leg)
                        or '2.1',
                        '--compute-service-type',
                        conf_value('compute', 'catalog_type', leg)
                        or 'compute',
                        '--concurrency', str(concurrency),
                        '--out', floor, check=False)
    if rc:
        sh.echo('bench-suite: bench-floor (%d client(s)) failed (exit %d)'
                % (concurrency, rc))
    return floor


def bench_suite(regex, work, plane=''):
    """The figures of one leg: the default cloud's, or a plane's.

    ``plane``: the plane of one of conformance.LEGS, whose leg runs in
    its own workspace through its own nova-api (as in the full verdict,
    but alone on the cloud); ``regex``: default the leg's.
    """
    spec = dict((leg.plane, leg) for leg in conformance.LEGS)[plane]
    regex = regex or spec.regex
    out = os.path.join(work, 'tempest-run.log')
    sh.aio('up', stdout=subprocess.DEVNULL)
    ws = conformance.checked_workspace(spec, 'bench-suite')
    leg = plane or sh.pending_aio_output(
        'stage', 'leg', sh.path('claims.yaml'), check=False) or 'unknown'
    sh.echo('bench-suite: leg %s, regex %s' % (leg, regex))
    floor = measure_floor(work, leg=spec)
    together = measure_floor(work, CONCURRENCY, spec)
    log = os.path.join(ws, 'logs', 'tempest.log')
    start_line = 0
    if os.path.isfile(log):
        with open(log, 'rb') as f:
            start_line = f.read().count(b'\n')
    t0 = time.time()
    weights = ['--weights', spec.weights] if spec.weights else []
    rc = sh.run_to(out, sh.tempest_run_argv('--regex', regex, *weights,
                                            concurrency=CONCURRENCY),
                   both=True, check=False, cwd=ws)
    t1 = time.time()
    try:
        new = sh.read_lines(log)[start_line:]
    except OSError as exc:
        sh.fail('tail', "cannot open '%s' for reading: %s"
                % (log, exc.strerror))
    counts = os.path.join(work, 'counts.json')
    with open(counts, 'w') as f:
        json.dump(suitebench.count_log(new)._asdict(), f)
    outcomes = sh.grep(OUTCOME, out) or []
    sh.write_lines(b'bench-suite: ' + line[3:] for line in outcomes)
    if outcomes:
        subunit = os.path.join(work, 'run.subunit')
        sh.last_run_to(subunit, ws)
        # Figures, never a verdict: a missed target does not fail the run.
        sh.pending_aio('bench-report', '--subunit', subunit, '--floor',
                       floor, '--floor-together', together,
                       '--counts', counts, '--leg', leg, '--wall',
                       '%.3f' % (t1 - t0), '--start', '%.3f' % t0,
                       '--concurrency', str(CONCURRENCY), check=False)
    if rc or not outcomes:
        sh.echo('bench-suite: tempest run failed (exit %d%s):' % (
            rc, '' if outcomes else ', no outcome line'))
        sh.write_lines(sh.read_lines(out)[-40:])
    raise SystemExit(rc or (0 if outcomes else 1))


def suite_main(argv):
    """``bench-suite [--leg PLANE] [REGEX]``."""
    sh.setup()
    argv, plane = list(argv), ''
    planes = sorted(leg.plane for leg in conformance.LEGS if leg.plane)
    if argv[:1] == ['--leg']:
        if len(argv) < 2 or argv[1] not in planes:
            sh.fail('bench-suite', '--leg takes one of: %s (without it: '
                    "the default cloud's leg)" % ', '.join(planes))
        plane, argv = argv[1], argv[2:]
    work = tempfile.mkdtemp()
    regex = argv[0] if argv else ''
    return sh.run_stage(lambda: bench_suite(regex, work, plane), sh.Trap(
        lambda rc: shutil.rmtree(work, ignore_errors=True)))


# -- bench-verdicts -------------------------------------------------------

VERDICTS = 5
# They would make `conformance` run one leg, not the full verdict.
SINGLE_LEG = ('CONFORMANCE_LEGS', 'CONFORMANCE_LEG', 'AIO_EXTRA_VARS')


def read_json(path):
    """The JSON of PATH, or None when it is missing or unreadable."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def verdict_run(index, keep):
    """Run INDEX of the full verdict; its record (bench-verdicts.json)."""
    log = os.path.join(keep, 'run-%d.log' % index)
    merged = sh.path('conformance', 'merged')
    shutil.rmtree(merged, ignore_errors=True)
    sh.echo('bench-verdicts: run %d: tox -e conformance (every leg), '
            'log %s' % (index, log))
    t0 = time.time()
    rc = sh.run_to(log, [sh.aio_cmd(), 'conformance'], both=True,
                   check=False)
    wall = time.time() - t0
    report = read_json(os.path.join(merged, 'report.json')) or {}
    verdict = report.get('verdict') or {}
    failures = ['%s: %s (leg %s)' % (
        row['id'], (row.get('detail') or '').split('\n')[0], row.get('leg'))
        for row in report.get('requirements', [])
        if row.get('outcome') == 'fail']
    failures.extend(verdict.get('reasons') or [])
    legs = read_json(os.path.join(merged, 'legs.json')) or []
    # A leg that could not run (exit 2 or more) is no row of the report.
    failures.extend('leg %s: exit %d' % (leg['leg'], leg['exit'])
                    for leg in legs if leg['exit'] not in (0, 1))
    if rc and not failures:
        failures.append('exit %d without a merged verdict; the last lines '
                        'of %s:' % (rc, log))
        failures.extend(line.decode(errors='replace').rstrip()
                        for line in sh.read_lines(log)[-15:])
    if os.path.isdir(merged):
        shutil.copytree(merged, os.path.join(keep, 'run-%d' % index))
    return {'run': index, 'exit': rc, 'wall_seconds': round(wall, 1),
            # The VERDICT line (the first says the scopes).
            'verdict': next((line for line in verdict.get('lines') or ()
                             if line.startswith('VERDICT')),
                            'no merged verdict'),
            'totals': report.get('totals'),
            'legs': legs,
            'failures': failures}


def print_verdicts(runs):
    """The figures of the runs; the number of runs that failed."""
    for run in runs:
        sh.echo('bench-verdicts: run %d: %.1f s, exit %d: %s'
                % (run['run'], run['wall_seconds'], run['exit'],
                   run['verdict']))
        for leg in run['legs']:
            sh.echo('  leg %-52s up %6.1f s  run %6.1f s  exit %d'
                    % (leg['leg'], leg['up_seconds'], leg['run_seconds'],
                       leg['exit']))
        for failure in run['failures']:
            sh.echo('  FAILURE: %s' % failure)
    failed = [r for r in runs if r['exit'] or r['failures']]
    walls = [r['wall_seconds'] for r in runs]
    sh.echo('bench-verdicts: %d run(s), %d failed; wall time min %.1f s, '
            'median %.1f s, max %.1f s (the first run starts from the '
            'cloud as it was)' % (len(runs), len(failed), min(walls),
                                  suitebench.median(walls), max(walls)))
    per_leg = collections.OrderedDict()
    for run in runs:
        for leg in run['legs']:
            per_leg.setdefault(leg['leg'], []).append(leg)
    for name, legs in per_leg.items():
        sh.echo('bench-verdicts: leg %s: median up %.1f s, run %.1f s over '
                '%d run(s)' % (name, suitebench.median(
                    [x['up_seconds'] for x in legs]), suitebench.median(
                    [x['run_seconds'] for x in legs]), len(legs)))
    return len(failed)


def bench_verdicts(count, keep):
    for name in SINGLE_LEG:
        if os.environ.pop(name, None) is not None:
            sh.echo('bench-verdicts: %s ignored (it would run one leg, not '
                    'the full verdict)' % name)
    runs = []
    for index in range(1, count + 1):
        runs.append(verdict_run(index, keep))
        with open(os.path.join(keep, 'bench-verdicts.json'), 'w') as f:
            json.dump(runs, f, indent=1)
    failed = print_verdicts(runs)
    sh.echo('bench-verdicts: logs, each run\'s merged report and '
            'bench-verdicts.json in %s' % keep)
    raise SystemExit(1 if failed else 0)


def verdicts_main(argv):
    sh.setup()
    raw = (argv[0] if argv else '') or os.environ.get(
        'BENCH_VERDICTS') or str(VERDICTS)
    if not raw.isdigit() or int(raw) < 1:
        sh.fail('bench-verdicts', 'the number of runs is a positive '
                'integer, not %r' % raw, 2)
    keep = sh.path('logs', 'bench-verdicts')
    shutil.rmtree(keep, ignore_errors=True)
    os.makedirs(keep)
    return sh.run_stage(lambda: bench_verdicts(int(raw), keep))
