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
"""Who listens on which port, and which process is whose (stdlib only).

What the ``ports_free`` module checks (no port the cloud needs is held by
another program), and the reads of ``/proc`` that ``aio_supervisor`` and
``pending_aio.cloud.host`` use to tell the cloud's processes from others.
"""

import os
import subprocess

from ansible_collections.pending.aio.plugins.module_utils import aio_common


def listeners():
    """Map listening TCP port -> pid (from ss)."""
    out = subprocess.run(['ss', '-Hltnp'], capture_output=True, text=True)
    result = {}
    for line in out.stdout.splitlines():
        fields = line.split()
        if len(fields) < 4:
            continue
        port = fields[3].rsplit(':', 1)[-1]
        pid = None
        if 'pid=' in line:
            pid = int(line.split('pid=', 1)[1].split(',', 1)[0])
        if port.isdigit():
            result.setdefault(int(port), pid)
    return result


def ancestors(pid):
    chain = []
    while pid and pid > 1:
        chain.append(pid)
        try:
            with open('/proc/%d/stat' % pid) as f:
                pid = int(f.read().rsplit(')', 1)[1].split()[1])
        except OSError:
            break
    return chain


def read_pid(path):
    try:
        with open(path) as f:
            pid = int(f.read().strip())
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError):
        return None


def cmdline(pid):
    try:
        with open('/proc/%d/cmdline' % pid, 'rb') as f:
            return f.read().replace(b'\0', b' ').decode(errors='replace')
    except OSError:
        return '?'


def check_ports(ports, supervisor_pidfile):
    """Fail naming every port of ``ports`` ({name: port}) held by another.

    A port held by a process under our supervisord is ours.
    """
    ours = read_pid(supervisor_pidfile)
    busy = listeners()
    problems = []
    for name, port in ports.items():
        pid = busy.get(int(port), 'absent')
        if pid == 'absent':
            continue
        if ours and pid and ours in ancestors(pid):
            continue
        problems.append('port %s (needed by %s) is already in use by pid %s '
                        '(%s)' % (port, name, pid,
                                  cmdline(pid).strip() if pid else '?'))
    if problems:
        raise aio_common.AioError(
            '; '.join(problems) + '. Stop that process or change '
            'aio_ports in playbooks/group_vars/all.yaml.')
