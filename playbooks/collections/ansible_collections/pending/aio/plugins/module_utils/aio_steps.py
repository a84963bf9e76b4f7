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
"""The one-shot bootstrap steps of the embedded cloud (stdlib only).

What the ``steps`` module does: run commands (a database sync, a key
generation...) concurrently, each logging to its own file, each once
(its marker file).
"""

import os
import subprocess
import time

from ansible_collections.pending.aio.plugins.module_utils import aio_common


def run_steps(steps, check=False):
    """Run bootstrap steps concurrently, each logging to its own file.

    A step is {"name", "what", "log", "cmd", "marker"?, "creates"?,
    "cwd"?, "env"?, "secret_env"?}.  Steps whose marker (or ``creates``: a
    file the command makes) exists are skipped; a step that succeeds writes its
    marker.  Every step is waited for; the first failed one (in input
    order) raises naming its service, what failed and its log (the others
    that failed are named before it).

    :returns: the names of the steps run (with ``check``: that would run).
    """
    steps = [s for s in steps
             if not any(s.get(k) and os.path.exists(s[k])
                        for k in ('marker', 'creates'))]
    if check:
        return [s['name'] for s in steps]
    running = []
    for step in steps:
        os.makedirs(os.path.dirname(step['log']), exist_ok=True)
        log = open(step['log'], 'a')
        log.write('$ %s\n' % ' '.join(step['cmd']))
        log.flush()
        env = aio_common.environ(dict(step.get('env') or {},
                                      **(step.get('secret_env') or {})))
        running.append((step, log, subprocess.Popen(
            step['cmd'], stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, cwd=step.get('cwd'), env=env)))
    failed = []
    for step, log, proc in running:
        rc = proc.wait()
        log.close()
        if rc:
            failed.append((step, rc))
        elif step.get('marker'):
            with open(step['marker'], 'w') as f:
                f.write('%s\n' % time.strftime('%Y-%m-%dT%H:%M:%S'))
    if failed:
        others = ''.join('ERROR: %s: %s failed (exit %d); see %s\n'
                         % (s['name'], s['what'], rc, s['log'])
                         for s, rc in failed[1:])
        step, rc = failed[0]
        raise aio_common.AioError('%s%s: %s failed (exit %d); see %s'
                                  % (others, step['name'], step['what'], rc,
                                     step['log']), step['log'])
    return [s['name'] for s in steps]
