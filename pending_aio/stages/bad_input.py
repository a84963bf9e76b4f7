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
"""Bad input to the embedded cloud stops ``up`` saying what and where.

``python -m pending_aio functional-bad-input``
(``tools/functional-bad-input``): part of the functional stage, measured
against the real playbook (the unit tests of playbooks/files/aioctl.py
cover the same paths with mocks):

1. a failed database sync (placement's schema carries a revision no
   placement knows): the playbook stops naming placement, the step and
   .aio/logs/placement-bootstrap.log;
2. ``down`` (without --purge) leaves no process of ours running;
3. a port held by a process that is not ours (keystone's 5000): the
   playbook stops naming the port, keystone and the holder's pid;
4. a Debian package apt cannot install: the playbook stops naming the
   package, what it is for and .aio/logs/apt.log;
5. a nova source that is no nova git checkout.

It damages the cloud's data on purpose (1): run it last, before
``tools/aio down --purge``.
"""

import os
import re
import subprocess

from pending_aio import checks
from pending_aio import REPO
from pending_aio import sh


def first_line(line):
    """``sed 's/^ */   /' | cut -c1-300``."""
    return re.sub(b'^ *', b'   ', line, count=1)[:300]


def judge(name, rc, log, texts):
    """``up`` failed (it exited RC) and LOG has every TEXT.

    The line of the first TEXT is printed.
    """
    if rc == 0:
        sh.fail('functional', 'up succeeded despite the bad input (%s); see %s'
                % (name, log))
    for text in texts:
        if sh.grep_q(text, log, fixed=True):
            sh.fail('functional', "up failed (%s) but did not say '%s'; see %s"
                    % (name, text, log))
    sh.write_lines([first_line(sh.grep(texts[0], log, fixed=True)[0])])


def expect_up_fails(name, texts, up_args=()):
    """``up UP_ARGS`` must fail and its output must contain every TEXT."""
    log = sh.path('logs', 'bad-input-%s.log' % name)
    sh.echo('-- bad input (%s): up must stop and say why' % name)
    rc = sh.run_to(log, [sh.aio_cmd(), 'up'] + list(up_args), both=True,
                   check=False)
    judge(name, rc, log, texts)


def listening(port):
    out = sh.output(['ss', '-Hltn', 'sport = :%d' % port], check=False)
    return any(out.splitlines())


def body(trap):
    # 1. A failed database sync.
    sh.run(['mysql', '--defaults-file=%s' % sh.path('etc', 'my.cnf'),
            '-uroot', '-e', "UPDATE placement.alembic_version SET "
            "version_num = 'aaaaaaaaaaaa'"])
    synced = sh.path('state', 'placement-db-synced')
    if os.path.lexists(synced):
        os.remove(synced)
    expect_up_fails('db-sync', ['placement: placement-manage db sync failed',
                                sh.path('logs', 'placement-bootstrap.log')])

    # 2. down leaves nothing of ours running.
    sh.echo('-- down leaves no process of ours')
    sh.aio('down')
    sh.no_process_left('functional')

    # 3. A port held by a process that is not ours.
    holder = sh.start(['python3', '-m', 'http.server', '--bind', '127.0.0.1',
                       '5000'], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL)
    trap.set(lambda rc: sh.stop(holder))
    checks.wait_or_exit('the port holder listening on 5000',
                        lambda: listening(5000), 5, 0.1,
                        'functional: the port holder did not listen on 5000 '
                        'within 5 s')
    expect_up_fails('port', ['port 5000 (needed by keystone) is already in '
                             'use by pid %d' % holder.pid])
    holder.terminate()
    holder.wait()
    trap.clear()

    # 4. A Debian package apt cannot install (the real list plus one that
    # does not exist; the changed list is not marked installed, so the next
    # `up` with the real list is unaffected).
    packages = sh.pending_aio_output(
        'stage', 'apt-packages-with-missing',
        os.path.join(REPO, 'playbooks', 'roles', 'aio_packages', 'defaults',
                     'main.yaml'))
    expect_up_fails('apt', ['apt could not install aio-no-such-package (a '
                            'package no Debian archive has)',
                            sh.path('logs', 'apt.log')], ['-e', packages])

    # 5. A nova source that is no nova git checkout.
    expect_up_fails('nova-source', ['aio_nova_source %s is not a nova git '
                                    'checkout' % sh.path('logs')],
                    ['-e', 'aio_nova_source=%s' % sh.path('logs')])
    sh.echo('functional: bad input OK')


def main(argv):
    sh.setup()
    trap = sh.Trap()
    return sh.run_stage(lambda: body(trap), trap)
