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
"""``tox -e conformance`` and the conformance report of the last run.

``python -m pending_aio conformance [RUN-ARGS...]`` (``tools/conformance``):
the conformance verdict of the embedded cloud, reached the way any cloud's
is: bring the cloud up if needed (it is left running), then
``pending-conformance run`` on the workspace ``tox -e aio`` wrote with
``pending-conformance init`` from .aio/clouds.yaml and .aio/claims.yaml::

    tox -e conformance                          # the whole suite, explore
    tox -e conformance -- --regex X             # arguments go to `run`
    CONFORMANCE_MODE=certify tox -e conformance

Artifacts: .aio/conformance/<leg>/ (leg: nova, PENDING on/off, policy
profile; CONFORMANCE_LEG names another).

``python -m pending_aio conformance-report JSON-FILE``
(``tools/conformance-report``): the conformance report (one line per
requirement of the catalogue) of the last Tempest run in the embedded
cloud's workspace; also written as JSON.
"""

import os
import subprocess
import sys

from pending_aio import sh


def run_argv(leg, out, mode, args):
    """The ``pending-conformance run`` of the embedded cloud's workspace."""
    return [sh.tools_python(), '-m', 'pending_tempest_plugin.runner.cli',
            'run', '--workspace', sh.path('tempest'), '--mode', mode,
            '--leg', leg, '--output', out] + list(args)


def main(argv):
    sh.setup()
    rc = sh.run_stage(lambda: sh.aio('up'))
    if rc:
        return rc
    leg = (os.environ.get('CONFORMANCE_LEG')
           or sh.pending_aio_output('stage', 'leg', sh.path('claims.yaml')))
    out = sh.path('conformance', leg)
    sh.run(['rm', '-rf', out])
    cmd = run_argv(leg, out, os.environ.get('CONFORMANCE_MODE') or 'explore',
                   argv)
    env = dict(os.environ, OS_CLIENT_CONFIG_FILE=sh.path('clouds.yaml'))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(cmd[0], cmd, env)
    except OSError as exc:
        sh.echo('%s: %s' % (cmd[0], exc.strerror), err=True)
        return 127


def report(json_file):
    """``stestr last --subunit | python -m ...conformance.report``.

    Its status under pipefail: the last command's failure, else the
    first's.
    """
    json_file = os.path.realpath(json_file)
    tempest = sh.path('tempest')
    sys.stdout.flush()
    stestr = subprocess.Popen([sh.path('bin', 'stestr'), 'last', '--subunit'],
                              cwd=tempest, stdout=subprocess.PIPE)
    rep = subprocess.Popen(
        [sh.tools_python(), '-m', 'pending_tempest_plugin.conformance.report',
         '--tempest-conf', sh.path('tempest', 'etc', 'tempest.conf'),
         '--json', json_file], cwd=tempest, stdin=stestr.stdout)
    stestr.stdout.close()
    rc = rep.wait()
    return rc or stestr.wait()


def report_main(argv):
    if len(argv) < 1:
        sys.exit('usage: python -m pending_aio conformance-report JSON-FILE')
    sh.setup()
    return report(argv[0])
