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
"""What bench-suite makes of a run: counts, times per requirement, ratio.

The module itself needs the standard library only (bench.py imports it
with the tox venv's python to count the run's requests in tempest.log);
``python -m pending_aio bench-report`` runs with the tools venv (subunit,
the catalogue's yaml) and prints the leg's figures.

The model, also in doc/source/embedded-cloud.rst:

- **servers booted**: ``202 POST /v2.1/servers`` in tempest.log; of them
  **buried**: the servers a wait of the plugin saw PENDING or ERROR (the
  ``common.polling`` lines: scheduling failed, the server lies in cell0;
  a build that fails on a compute counts here too); the others went
  ACTIVE; **rebuilt**: buried servers a wait later saw ACTIVE (a cell0
  rebuild schedules and boots them).  **deleted**: the servers answered
  ``204 DELETE``.
  **buried again**: the waits that ended PENDING or ERROR after a
  server's first burial (a cell0 rebuild that could not schedule, or
  that the quota refused: the API, conductor and scheduler round trip of
  a burial, as a rebuild to ACTIVE is a boot's; each burial counts,
  however often a server is buried).
- **floor of the leg** = ((ACTIVE boots + rebuilt) x time to ACTIVE +
  (buried + buried again) x time to PENDING + deletes x time to delete)
  / concurrency,
  with the medians bench-floor measured in the same run by as many
  clients at once as the leg has workers: the time each operation takes
  while that many share the cloud.  Other operations (other server
  actions, host_status waits on a stopped compute, volumes) are not in
  the floor: the ratio is an upper bound of what the tests waste.
  The report also prints the floor with each operation's one-client time,
  which assumes that two operations at once take no longer than one
  alone; bench-floor measured that false on the embedded cloud (2 cores:
  doc/source/data/code-timings.yaml, bench_suite_floor).
- **test seconds** (:func:`attribute`): subunit gives each test's start and
  end and its worker; setUpClass and tearDownClass leave no record when
  they pass.  On each worker, the gap before the first test of a class
  (since the previous test on that worker ended, or since the run started
  for the worker's first class) is that class's overhead: its setUpClass,
  the previous class's tearDownClass, and for a worker's first class the
  runner's start.  The runner's two phases are attributed apart: the
  parallel phase's workers start when the serial phase's last test ends,
  so their first gaps count from there.  A gap between two tests of one
  class belongs to the later test.  The class overhead is shared evenly
  by the class's tests.
  The last class's tearDownClass on each worker is after its last record:
  it is in the wall time only.
- **per requirement**: the test seconds of the tests that decided it (ran,
  not skipped), from the catalogue's ``tests``; a test deciding several
  requirements counts for each.  The leg's **wall time per requirement**
  is the wall time over the number of requirements decided.
"""

import collections
import json
import os
import re
import statistics

BOOT = re.compile(rb'202 POST \S+/v2\.1/servers ')
ACTION = re.compile(rb'20[02] POST \S+/v2\.1/servers/[0-9a-f-]+/action ')
DELETE = re.compile(rb'204 DELETE \S+/v2\.1/servers/([0-9a-f-]{36}) ')
BURIED = re.compile(rb'common\.polling \[[^]]*\] server ([0-9a-f-]{36}) '
                    rb'to ([A-Z_/]+): (PENDING|ERROR) \(')
WENT_ACTIVE = re.compile(rb'common\.polling \[[^]]*\] server '
                         rb'([0-9a-f-]{36}) to [A-Z_/]+: ACTIVE \(')
DECIDING = ('success', 'fail', 'xfail', 'uxsuccess')
TARGET = 2.0

Counts = collections.namedtuple(
    'Counts', ['boots', 'buried', 'deletes', 'actions', 'rebuilt',
               'reburied'])
Counts.__new__.__defaults__ = (0, 0)
Test = collections.namedtuple('Test',
                              ['id', 'status', 'worker', 'start', 'end'])


# The standard library's (its error on no value is a ValueError).
median = statistics.median


def count_log(lines):
    """Counts of the server operations of Tempest log lines (bytes)."""
    boots = actions = burials = 0
    buried, deleted, active, ended = set(), set(), set(), set()
    for line in lines:
        if BOOT.search(line):
            boots += 1
        elif ACTION.search(line):
            actions += 1
        else:
            for regex, seen in ((DELETE, deleted), (WENT_ACTIVE, active)):
                match = regex.search(line)
                if match:
                    seen.add(match.group(1))
            match = BURIED.search(line)
            if match:
                buried.add(match.group(1))
                # A wait that ended buried (the state one of its
                # targets): a burial, the first of its server's or a
                # rebuild's.
                if match.group(3) in match.group(2).split(b'/'):
                    burials += 1
                    ended.add(match.group(1))
    return Counts(boots, len(buried), len(deleted), actions,
                  len(buried & active), max(0, burials - len(ended)))


def class_of(test_id):
    return test_id.split('[', 1)[0].rsplit('.', 1)[0]


def attribute(tests, start=None, serial=()):
    """({test id: test seconds}, {class: overhead seconds}).

    ``tests``: :class:`Test` records (times in seconds); ``start``: when
    the run started (default: the first test's start); ``serial``: the ids
    of the tests the runner ran in its serial phase (one worker, first).
    Each phase is attributed alone, the parallel one from the end of the
    serial one: its workers started then, so a worker's first gap is not
    charged the serial phase.  The method is the module docstring's.
    """
    if not tests:
        return {}, {}
    if start is None:
        start = min(t.start for t in tests)
    serial = set(serial)
    first = [t for t in tests if t.id in serial]
    rest = [t for t in tests if t.id not in serial]
    charged, overhead = {}, {}
    for phase, since in ((first, start),
                         (rest, max([t.end for t in first] or [start]))):
        got, costs = _attribute(phase, since)
        charged.update(got)
        for cls, sec in costs.items():
            overhead[cls] = overhead.get(cls, 0.0) + sec
    return charged, overhead


def _attribute(tests, start):
    by_worker = collections.defaultdict(list)
    for test in tests:
        by_worker[test.worker].append(test)
    own, overhead = {}, collections.Counter()
    members = collections.defaultdict(list)
    for run in by_worker.values():
        run.sort(key=lambda t: t.start)
        previous_end, previous_class = start, None
        for test in run:
            gap = max(0.0, test.start - previous_end)
            cls = class_of(test.id)
            own[test.id] = test.end - test.start
            if cls != previous_class:
                overhead[cls] += gap
            else:
                own[test.id] += gap
            members[cls].append(test.id)
            previous_end, previous_class = max(previous_end, test.end), cls
    charged = {}
    for cls, ids in members.items():
        for test_id in ids:
            charged[test_id] = own[test_id] + overhead[cls] / len(ids)
    return charged, dict(overhead)


def serial_ids(tests, err=None):
    """The ids of ``tests`` the runner's serial phase ran (tools venv).

    Read from the test classes, as the runner does; a test whose class
    cannot be imported is named on ``err`` (default stderr): it counts as
    parallel, so its serial phase, if it had one, is not told apart.
    """
    import sys

    from pending_tempest_plugin.runner import phases

    # A class-level record ("setUpClass (pkg.module.Class)", a skipped
    # class) is no test id: it names no class to import.
    unknown = sorted({class_of(t.id) for t in tests
                      if ' ' not in t.id
                      and phases.test_class(t.id) is None})
    if unknown:
        print('bench-suite: warning: %d class(es) could not be imported, '
              'counted in the parallel phase: %s'
              % (len(unknown), ', '.join(unknown)), file=err or sys.stderr)
    return phases.split([t.id for t in tests])[0]


def by_requirement(requirements, tests, charged):
    """[(requirement id, test seconds, tests deciding it)], undecided ids.

    ``requirements``: (id, idempotent ids of its tests) in catalogue order;
    a requirement is decided when one of its tests ran and was not skipped.
    """
    from pending_tempest_plugin.conformance import verdict

    deciding = collections.defaultdict(list)
    for test in tests:
        if test.status in DECIDING:
            for uuid in verdict.UUID_RE.findall(test.id):
                deciding[uuid].append(test.id)
    rows, undecided = [], []
    for rid, uuids in requirements:
        ids = sorted({t for u in uuids for t in deciding.get(u, ())})
        if ids:
            rows.append((rid, sum(charged.get(t, 0.0) for t in ids),
                         len(ids)))
        elif uuids:
            undecided.append(rid)
    return rows, undecided


def floor_seconds(counts, floor, concurrency):
    """The leg's floor: its operations at the cloud's own speed."""
    active = max(0, counts.boots - counts.buried) + counts.rebuilt
    return (active * floor['active']
            + (counts.buried + counts.reburied) * floor['pending']
            + counts.deletes * floor['delete']) / float(concurrency)


def ratio_line(wall, floor, target=TARGET):
    ratio = wall / floor if floor else float('inf')
    return ('ratio %.2fx the floor (target: at most %gx: %s)'
            % (ratio, target, 'met' if ratio <= target else 'missed'))


def _floor_of_leg(counts, floor, concurrency, what):
    """Two lines: the floor's medians, the leg's floor; and that floor."""
    med = {op: median(floor[op]) for op in ('active', 'pending', 'delete')}
    active = max(0, counts.boots - counts.buried) + counts.rebuilt
    low = floor_seconds(counts, med, concurrency)
    return [
        "the cloud's floor, %s (median of %d, direct API calls): ACTIVE "
        '%.2f s, %s %.2f s, delete %.2f s'
        % (what, len(floor['active']), med['active'],
           floor.get('pending_status') or 'PENDING', med['pending'],
           med['delete']),
        "floor of the leg's operations: (%d x %.2f + %d x %.2f + %d x %.2f)"
        ' / %d = %.1f s' % (active, med['active'],
                            counts.buried + counts.reburied,
                            med['pending'], counts.deletes, med['delete'],
                            concurrency, low),
    ], low


def floor_lines(wall, counts, floor, concurrency, together=None):
    """The floors, the leg's floor and the ratio; why not, without a floor.

    ``floor``: bench-floor with one client; ``together``: with
    ``concurrency`` clients at once, the floor the target is judged on
    (without it, the one-client floor is, and the lines say so).
    """
    if not floor and not together:
        return ["the cloud's floor was not measured (bench-floor failed): "
                'no ratio']
    out = []
    if together:
        lines, low = _floor_of_leg(counts, together, concurrency,
                                   '%d clients at once' % concurrency)
        out += lines + [ratio_line(wall, low)]
    if floor:
        lines, low = _floor_of_leg(counts, floor, concurrency,
                                   'one client')
        if together:
            out += [line + ' (one-client times: %d operations at once '
                    'assumed as fast as one)' % concurrency if i else line
                    for i, line in enumerate(lines)]
            out.append('with the one-client floor: ratio %.2fx (the '
                       'target is judged on the floor above)'
                       % (wall / low if low else float('inf')))
        else:
            out += lines + [ratio_line(wall, low) + " (the floor with %d "
                            "clients at once was not measured)"
                            % concurrency]
    return out


def report_lines(leg, wall, counts, floor, concurrency, rows, undecided,
                 overhead, together=None):
    """The lines bench-suite prints for one leg (``floor``: None if none).

    ``together``: the floor measured by ``concurrency`` clients at once.
    """
    out = [
        'leg %s: wall time %.1f s (tempest run, class setup included, '
        'concurrency %d)' % (leg, wall, concurrency),
        'servers booted %d (%d to ACTIVE, %d buried: PENDING/ERROR), '
        'rebuilt to ACTIVE %d, buried again by a rebuild %d, deleted %d, '
        'server actions %d'
        % (counts.boots, max(0, counts.boots - counts.buried),
           counts.buried, counts.rebuilt, counts.reburied, counts.deletes,
           counts.actions),
    ] + floor_lines(wall, counts, floor, concurrency, together) + [
        'requirements decided %d: %.1f s wall per requirement'
        % (len(rows), wall / len(rows) if rows else 0.0),
    ]
    if undecided:
        out.append('not decided in this leg: %s' % ' '.join(undecided))
    out.append('test seconds per requirement (own time + share of class '
               'setup; summed over both workers):')
    out.extend('  %-7s %6.1f s  (%d test%s)' % (rid, sec, n,
                                                '' if n == 1 else 's')
               for rid, sec, n in rows)
    out.append('class overhead (setUpClass, previous tearDownClass):')
    out.extend('  %6.1f s  %s' % (sec, cls.rsplit('.', 1)[-1])
               for cls, sec in sorted(overhead.items(), key=lambda i: -i[1]))
    return out


def subunit_tests(stream):
    """:class:`Test` records of a binary subunit v2 stream."""
    from pending_tempest_plugin.conformance import verdict

    tests = []

    def on_test(test):
        stamps = [t for t in test.get('timestamps') or () if t]
        if len(stamps) != 2:
            return
        worker = sorted(t for t in test.get('tags') or ()
                        if t.startswith('worker-'))
        tests.append(Test(test['id'], test['status'],
                          worker[0] if worker else '',
                          stamps[0].timestamp(), stamps[1].timestamp()))

    verdict.each_test(stream, on_test)
    return tests


def catalogue_rows():
    from pending_tempest_plugin.conformance import catalogue
    return [(r.id, tuple(r.tests or ())) for r in catalogue.load()
            .requirements]


def report_main(argv=None):
    """The leg's figures (``python -m pending_aio bench-report``).

    ``--subunit F --floor F --counts F --leg L --wall S --start T
    [--floor-together F] [--concurrency N]``: what bench-suite wrote
    (bench.py).
    """
    import argparse

    parser = argparse.ArgumentParser(description='bench-suite figures')
    for name in ('--subunit', '--floor', '--counts', '--leg'):
        parser.add_argument(name, required=True)
    parser.add_argument('--wall', type=float, required=True)
    parser.add_argument('--start', type=float)
    parser.add_argument('--floor-together',
                        help='bench-floor by --concurrency clients at once')
    parser.add_argument('--concurrency', type=int, default=2)
    args = parser.parse_args(argv)
    with open(args.subunit, 'rb') as f:
        tests = subunit_tests(f)
    floor = together = None
    if os.path.isfile(args.floor):
        with open(args.floor) as f:
            floor = json.load(f)
    if args.floor_together and os.path.isfile(args.floor_together):
        with open(args.floor_together) as f:
            together = json.load(f)
        if together.get('concurrency') != args.concurrency:
            print('bench-suite: the floor of %s was measured by %s '
                  'client(s) at once, not %d: not used'
                  % (args.floor_together, together.get('concurrency'),
                     args.concurrency))
            together = None
    with open(args.counts) as f:
        counts = Counts(**json.load(f))
    charged, overhead = attribute(tests, args.start, serial_ids(tests))
    rows, undecided = by_requirement(catalogue_rows(), tests, charged)
    for line in report_lines(args.leg, args.wall, counts, floor,
                             args.concurrency, rows, undecided, overhead,
                             together):
        print('bench-suite: ' + line if not line.startswith(' ') else line)
    return 0
