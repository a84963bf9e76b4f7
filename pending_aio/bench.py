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
"""The phases of timed ``up`` runs (``tools/bench-aio``).

``python -m pending_aio bench DIR [LABEL...]`` (default labels: cold,
warm) reads, for each LABEL, what ``tools/bench-aio`` wrote in DIR:
LABEL.jsonl (the playbook's per-task times, AIO_TIMINGS), LABEL.wall (the
start and end of the run) and LABEL.cpu (the busy and idle jiffies of
/proc/stat before and after), and prints the wall time of each phase of
that ``up`` and how busy the CPUs were.
"""

import json
import os

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
