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
"""``pending_aio check-host``: what a local cloud shows other users.

Two promises of the embedded cloud (doc: embedded-cloud, "Secrets, file
modes and listeners"), checked on the running cloud by the functional
stage:

* every TCP listener of the cloud's processes is on the loopback
  (``ss -Hltnp``: a listener whose process's command line or working
  directory names ``$AIO_DIR``);
* no file under ``$AIO_DIR`` that holds one of the cloud's secrets
  (``state/secrets.json``) is readable by other users: neither its owner
  nor its group (root's, or the service's own: MariaDB's and RabbitMQ's
  files).  A file is readable by others when it has the read bit for
  others and every directory above it, up to ``$AIO_DIR``, lets others
  through.  The virtualenvs and the nova source are not read (they hold
  no secret); a file over 4 MiB (images, volumes, database files) neither.

Secrets shorter than 12 characters are not looked for: they are the
fixed passwords a cloud built before its secrets file keeps (``admin``,
``secret``...), words that any log holds; the check says so.

Exits 1 naming every listener and file at fault.
"""

import argparse
import json
import os
import stat
import subprocess
import sys

import pending_aio

# The process helpers `tools/aio down` uses (standard library only).
sys.path.insert(0, os.path.join(pending_aio.REPO, 'playbooks',
                                'collections'))
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_ports)
from ansible_collections.pending.aio.plugins.module_utils import (  # noqa
    aio_supervisor)

LOOPBACK = ('127.', '[::1]', '::1')
SKIP_DIRS = ('venvs', 'src')
MAX_SIZE = 4 << 20
MIN_SECRET = 12


def listeners(ss_output):
    """``[(address, port, pid)]`` of ``ss -Hltnp`` output."""
    result = []
    for line in ss_output.splitlines():
        fields = line.split()
        if len(fields) < 4:
            continue
        address, _, port = fields[3].rpartition(':')
        pids = [int(p.split(',', 1)[0])
                for p in line.split('pid=')[1:]]
        for pid in pids or [None]:
            result.append((address, port, pid))
    return result


def _ours(pid, aio_dir):
    """Whether the process's command line or directory names aio_dir."""
    try:
        cwd = os.readlink('/proc/%d/cwd' % pid)
    except OSError:
        return False
    return (aio_supervisor.mentions(aio_ports.cmdline(pid), aio_dir)
            or aio_supervisor.mentions(cwd, aio_dir))


def exposed_listeners(ss_output, is_ours):
    """The listeners of the cloud that are not on the loopback."""
    return sorted({'%s:%s (pid %s)' % (address, port, pid)
                   for address, port, pid in listeners(ss_output)
                   if pid is not None and is_ours(pid)
                   and not address.startswith(LOOPBACK)})


def _passable(path):
    try:
        return bool(os.stat(path).st_mode & stat.S_IXOTH)
    except OSError:
        return False


def readable_secret_files(aio_dir, secrets):
    """Files under ``aio_dir`` holding a secret, readable by others."""
    needles = [s.encode() for s in secrets if len(s) >= MIN_SECRET]
    found = []
    for root, dirs, files in os.walk(aio_dir):
        if root == aio_dir:
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        # Others cannot reach below a directory they cannot pass.
        dirs[:] = [d for d in dirs if _passable(os.path.join(root, d))]
        for name in files:
            path = os.path.join(root, name)
            try:
                st = os.lstat(path)
                if (not stat.S_ISREG(st.st_mode) or st.st_size > MAX_SIZE
                        or not st.st_mode & stat.S_IROTH):
                    continue
                with open(path, 'rb') as f:
                    data = f.read()
            except OSError:
                continue
            if any(n in data for n in needles):
                found.append('%s (mode %04o)' % (
                    os.path.relpath(path, aio_dir), st.st_mode & 0o7777))
    return sorted(found)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='pending_aio check-host', description=__doc__.splitlines()[0])
    parser.add_argument('--aio-dir', default=os.environ.get('AIO_DIR'))
    args = parser.parse_args(argv)
    aio_dir = os.path.realpath(args.aio_dir or '.aio')
    with open(os.path.join(aio_dir, 'state', 'secrets.json')) as f:
        secrets = list(json.load(f).values())
    ss = subprocess.run(['ss', '-Hltnp'], capture_output=True, text=True,
                        check=True).stdout
    problems = ['a listener of the cloud not on the loopback: %s' % item
                for item in exposed_listeners(
                    ss, lambda pid: _ours(pid, aio_dir))]
    problems += ['a file holding a secret readable by other users: %s'
                 % item for item in readable_secret_files(aio_dir, secrets)]
    short = [s for s in secrets if len(s) < MIN_SECRET]
    if short:
        print('check-host: %d of the secrets are shorter than %d characters '
              '(a cloud built before its secrets file): not looked for in '
              'files' % (len(short), MIN_SECRET))
    for problem in problems:
        print('check-host: %s' % problem)
    if problems:
        return 1
    ours = [item for item in listeners(ss)
            if item[2] is not None and _ours(item[2], aio_dir)]
    print('check-host: ok: %d listeners of the cloud, all on the loopback; '
          'no file holding one of its %d secrets is readable by others'
          % (len(ours), len(secrets)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
