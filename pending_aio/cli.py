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
"""``python -m pending_aio SUBCOMMAND [ARGS...]``: the one command.

Each subcommand is a function or a module's ``main(argv)``, imported only
when it runs (the lifecycle runs where openstacksdk is not installed).
``python -m pending_aio SUBCOMMAND --help`` says more about each.
"""

import importlib
import sys

# name: (module, function, what it does).
SUBCOMMANDS = {
    'up': ('pending_aio.cloud.control', 'up',
           'bring the cloud up (idempotent; ansible-playbook)'),
    'down': ('pending_aio.cloud.control', 'down',
             'stop every process (--purge also wipes the data)'),
    'status': ('pending_aio.cloud.control', 'status',
               'each service and whether it answers'),
    'rss': ('pending_aio.cloud.control', 'rss',
            'the RSS of every supervised program'),
    'constraints': ('pending_aio.cloud.control', 'constraints',
                    'regenerate the constraints (roles/aio_python) from the '
                    'running cloud'),
    'bench': ('pending_aio.bench.runs', 'main',
              'the phases of timed `up` runs (bench-aio)'),
    'smoke': ('pending_aio.cloud.smoke', 'main',
              'smoke checks: the cloud is a real cloud'),
    'check-clean': ('pending_aio.cloud.clean', 'main',
                    'nothing left behind, every compute restored'),
    'check-trait-writes': ('pending_aio.cloud.clean', 'check_trait_writes',
                           'Tempest wrote traits to the claimed capacity '
                           'hosts only'),
    'check-host': ('pending_aio.cloud.host', 'main',
                   'loopback listeners only, no secret readable by others'),
    'keepalive-probe': ('pending_aio.cloud.keepalive', 'main',
                        'dropped reused connections on every endpoint'),
    'tls-proxy': ('pending_aio.cloud.tls_proxy', 'main',
                  'a TLS endpoint with a private CA in front of a port'),
    'fixtures': ('pending_aio.cloud.fixtures', 'main',
                 'accounts, credentials and leaks the runner stage needs'),
    'stage': ('pending_aio.stages.venv_steps', 'main',
              'the checks the stages run with the tools venv'),
    'ssh-converge': ('pending_aio.cloud.ssh_target', 'main',
                     'up once more over SSH on the loopback: no change'),
    'mutant': ('pending_aio.mutants.mutant', 'main',
               'misbehaving clouds: mutants of the reference nova'),
    'zuul-check': ('pending_aio.zuul.check', 'main',
                   'zuul.d/ through Zuul\'s parser, every name resolved'),
    # The stages (tox envs and CI), with the tox venv's python.
    'functional': ('pending_aio.stages.functional', 'main',
                   'the functional stage: up, prove, every leg, down'),
    'functional-runner': ('pending_aio.stages.runner_stage', 'main',
                          'pending-conformance on the cloud as on any '
                          'cloud'),
    'browser-check': ('pending_aio.stages.browser', 'main',
                      "a report page in Debian's headless Chromium, "
                      'checked as a person sees it'),
    'functional-plugin': ('pending_aio.stages.plugin_legs', 'main',
                          "the plugin's suite leg by leg "
                          '(FUNCTIONAL_LEGS)'),
    'functional-bad-input': ('pending_aio.stages.bad_input', 'main',
                             'bad input stops `up` saying why'),
    'conformance': ('pending_aio.stages.conformance', 'main',
                    'the conformance verdict of the cloud (tox -e '
                    'conformance)'),
    'conformance-report': ('pending_aio.stages.conformance', 'report_main',
                           'the conformance report of the last run'),
    'bench-aio': ('pending_aio.bench.runs', 'aio_main',
                  'phase times of a cold and a warm `up`, and RSS'),
    'bench-suite': ('pending_aio.bench.runs', 'suite_main',
                    'wall time, servers booted, time per requirement and '
                    "ratio to the cloud's floor of the suite"),
    'bench-verdicts': ('pending_aio.bench.runs', 'verdicts_main',
                       'the full multi-leg verdict N times in a row: '
                       'every failure, times per leg'),
    'upgrade': ('pending_aio.stages.upgrade', 'main',
                'a rolling upgrade of the running stock nova to the '
                'series, checked at every step'),
    'bench-floor': ('pending_aio.bench.floor', 'main',
                    'time to ACTIVE, to PENDING and to delete by direct '
                    'API calls'),
    'bench-report': ('pending_aio.bench.suite', 'report_main',
                     "a bench-suite leg's figures from its subunit"),
}


def usage(out):
    out.write('usage: python -m pending_aio SUBCOMMAND [ARGS...]\n\n')
    for name, (_, _, what) in SUBCOMMANDS.items():
        out.write('  %-21s %s\n' % (name, what))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ('-h', '--help'):
        usage(sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] not in SUBCOMMANDS:
        sys.stderr.write('pending_aio: no subcommand %r\n' % argv[0])
        usage(sys.stderr)
        return 2
    module, function, _ = SUBCOMMANDS[argv[0]]
    sys.argv[0] = 'pending_aio %s' % argv[0]
    return getattr(importlib.import_module(module), function)(argv[1:])
