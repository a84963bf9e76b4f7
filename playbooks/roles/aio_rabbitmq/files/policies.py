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
"""Make RabbitMQ's queue policies the ones given on stdin (idempotent).

Input: a JSON list of {name, pattern, definition, priority}; every policy
applies to queues of the default vhost.  Each policy that is missing or
differs is set; the last line printed is ``CHANGED`` if any was, else
``UNCHANGED``.  ``rabbitmqctl`` reads its node from the environment
(RABBITMQ_CONF_ENV_FILE, ERL_EPMD_PORT).
"""

import json
import subprocess
import sys

CTL = ['rabbitmqctl', '-q', '-n', 'rabbit@localhost']


def current():
    out = subprocess.run(CTL + ['list_policies', '--formatter', 'json'],
                         check=True, capture_output=True, text=True).stdout
    found = {}
    for policy in json.loads(out or '[]'):
        definition = policy.get('definition')
        if isinstance(definition, str):
            definition = json.loads(definition)
        found[policy['name']] = (policy.get('pattern'),
                                 policy.get('apply-to'), definition,
                                 int(policy.get('priority', 0)))
    return found


def main():
    wanted = json.load(sys.stdin)
    have = current()
    changed = False
    for policy in wanted:
        spec = (policy['pattern'], 'queues', policy['definition'],
                int(policy.get('priority', 0)))
        if have.get(policy['name']) == spec:
            continue
        if spec[0].startswith('-'):
            sys.exit('policy %s: a pattern starting with "-" reads as an '
                     'option to rabbitmqctl' % policy['name'])
        subprocess.run(CTL + ['set_policy', '--apply-to', 'queues',
                              '--priority', str(spec[3]), policy['name'],
                              spec[0], json.dumps(spec[2])], check=True)
        print('set policy %s on queues matching %s: %s'
              % (policy['name'], spec[0], json.dumps(spec[2])))
        changed = True
    print('CHANGED' if changed else 'UNCHANGED')


if __name__ == '__main__':
    main()
