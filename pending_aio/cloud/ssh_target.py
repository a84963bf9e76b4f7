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
"""The playbook over SSH: ``python -m pending_aio ssh-converge``.

Runs ``up`` once more on a built embedded cloud, with the cloud's host
reached through an SSH server on the loopback (an inventory whose host has
``ansible_connection: ssh``), and fails unless it converges with no change.
What it proves: every task of the play runs through a real SSH connection
(modules shipped to the host and run by its python3, files copied,
``delegate_to`` and ``become``-free root), and what a task reads of the
cloud's host it reads there.  The host is still this machine, so a read of
the controller's file system in place of the host's would go unnoticed
here; the unit test ``test_playbook_reads_host_on_host`` forbids those
reads in the roles.

The SSH server is the distribution's ``sshd`` (installed with apt when
missing), run in the foreground with a configuration, host key and client
key of its own under ``$AIO_DIR/ssh`` (0700), listening on 127.0.0.1 only,
keys only, and stopped again at the end whatever happens.

Usage: ``python -m pending_aio ssh-converge [--port N]`` (with the tox
venv's python, which has ansible).  Extra variables of ``up`` come from
``AIO_BASE_VARS`` as for ``tools/aio up``.  Exit 0: converged with no
change; 1: it changed something or failed (the output says what; the whole
log is ``$AIO_DIR/logs/up-ssh.log``).
"""

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys

from pending_aio import aio_dir
from pending_aio import checks
from pending_aio.cloud import control as cloud
from pending_aio import REPO

SSHD = '/usr/sbin/sshd'
RECAP = re.compile(r'changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)')


def sshd_config(d, port):
    """The configuration of the loopback SSH server (its own files in d)."""
    return '\n'.join([
        'ListenAddress 127.0.0.1',
        'Port %d' % port,
        'HostKey %s/host_key' % d,
        'PidFile %s/sshd.pid' % d,
        'AuthorizedKeysFile %s/authorized_keys' % d,
        'PermitRootLogin prohibit-password',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        # The playbook runs as root, keys in a directory of the cloud's.
        'StrictModes no',
        'Subsystem sftp internal-sftp',
        '']) + '\n'


def inventory(d, port):
    """The inventory: the one host of aio_cloud, reached over SSH."""
    host = {
        'ansible_connection': 'ssh',
        'ansible_host': '127.0.0.1',
        'ansible_port': port,
        'ansible_user': 'root',
        'ansible_ssh_private_key_file': '%s/client_key' % d,
        'ansible_ssh_common_args': (
            '-o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s/'
            'known_hosts' % d),
        # One connection per task, closed when it ends: no ControlPersist
        # master (nor its session on the server) outlives the run.
        'ansible_ssh_args': '-o ControlMaster=no -o ControlPersist=no',
        # The host's own python3 runs the modules.
        'ansible_python_interpreter': '/usr/bin/python3',
        # The same cloud and checkout as a local `up` (this machine).
        'aio_dir': aio_dir(),
        'aio_repo_dir': REPO,
    }
    lines = ['---', '# Written by python -m pending_aio ssh-converge.',
             'all:', '  children:', '    aio_cloud:', '      hosts:',
             '        cloud-over-ssh:']
    for name, value in host.items():
        lines.append('          %s: %s' % (name, _yaml_scalar(value)))
    return '\n'.join(lines) + '\n'


def _yaml_scalar(value):
    if isinstance(value, int):
        return str(value)
    return "'%s'" % str(value).replace("'", "''")


def recap(output):
    """(changed, unreachable, failed) of the play's recap, or None."""
    found = RECAP.findall(output)
    if len(found) != 1:
        return None
    return tuple(int(n) for n in found[0])


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def answers(port):
    try:
        with socket.create_connection(('127.0.0.1', port), timeout=1) as s:
            return s.recv(4).startswith(b'SSH-')
    except OSError:
        return False


def ensure_sshd():
    if os.path.exists(SSHD) and shutil.which('ssh'):
        return
    print('ssh-converge: installing openssh-server and openssh-client')
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    # The package's own service is not started (policy-rc.d says no while
    # it installs, unless the machine has its own): the only sshd is ours,
    # on the loopback, for the length of the run.
    policy = '/usr/sbin/policy-rc.d'
    ours = not os.path.exists(policy)
    if ours:
        with open(policy, 'w') as f:
            f.write('#!/bin/sh\nexit 101\n')
        os.chmod(policy, 0o755)
    try:
        # Another stage may hold apt's lock (tox run-parallel): wait.
        subprocess.run(['apt-get', '-o', 'DPkg::Lock::Timeout=600',
                        'install', '-y', '-q',
                        '--no-install-recommends', 'openssh-server',
                        'openssh-client'], check=True, env=env,
                       stdout=subprocess.DEVNULL)
    finally:
        if ours:
            os.unlink(policy)


def keys(d, port):
    for name in ('host_key', 'client_key'):
        if not os.path.exists(os.path.join(d, name)):
            subprocess.run(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '',
                            '-C', 'pending-aio-%s' % name, '-f',
                            os.path.join(d, name)], check=True)
    shutil.copy(os.path.join(d, 'client_key.pub'),
                os.path.join(d, 'authorized_keys'))
    with open(os.path.join(d, 'host_key.pub')) as f:
        host_key = ' '.join(f.read().split()[:2])
    with open(os.path.join(d, 'known_hosts'), 'w') as f:
        f.write('[127.0.0.1]:%d %s\n' % (port, host_key))


def main(argv=None):
    parser = argparse.ArgumentParser(prog='pending_aio ssh-converge',
                                     description=__doc__.split('\n')[0])
    parser.add_argument('--port', type=int, default=0,
                        help='the SSH server\'s port (default: a free one)')
    args = parser.parse_args(argv)
    checks.setup_logging()
    ensure_sshd()
    port = args.port or free_port()
    d = os.path.join(aio_dir(), 'ssh')
    os.makedirs(d, mode=0o700, exist_ok=True)
    os.chmod(d, 0o700)
    keys(d, port)
    with open(os.path.join(d, 'sshd_config'), 'w') as f:
        f.write(sshd_config(d, port))
    with open(os.path.join(d, 'inventory.yaml'), 'w') as f:
        f.write(inventory(d, port))
    # sshd's privilege separation directory.
    os.makedirs('/run/sshd', mode=0o755, exist_ok=True)
    subprocess.run([SSHD, '-t', '-f', os.path.join(d, 'sshd_config')],
                   check=True)
    log = os.path.join(aio_dir(), 'logs', 'up-ssh.log')
    sshd = subprocess.Popen(
        [SSHD, '-D', '-e', '-f', os.path.join(d, 'sshd_config')],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(aio_dir(), 'logs', 'sshd.log'), 'w'))
    try:
        checks.wait_or_exit(
            'the loopback SSH server on port %d' % port,
            lambda: answers(port), 30, 0.2,
            'ssh-converge: sshd does not answer on 127.0.0.1:%d; see %s'
            % (port, os.path.join(aio_dir(), 'logs', 'sshd.log')))
        print('ssh-converge: up with the cloud\'s host at '
              'root@127.0.0.1:%d (ansible_connection: ssh)' % port)
        sys.stdout.flush()
        with open(log, 'w') as out:
            rc = subprocess.run(
                [sys.executable, '-m', 'pending_aio', 'up', '-i',
                 os.path.join(d, 'inventory.yaml')],
                stdout=out, stderr=subprocess.STDOUT,
                env=dict(os.environ, PYTHONPATH=REPO)).returncode
    finally:
        # Nothing of the run left behind: no session of our sshd (each
        # task's connection closed with the task).
        below = cloud.descendants(sshd.pid)
        sshd.terminate()
        sshd.wait(10)
    left = [pid for pid in below if os.path.exists('/proc/%d' % pid)]
    if left:
        print('ssh-converge: sshd sessions left after the run (stopped '
              'now): %s' % left, file=sys.stderr)
        for pid in left:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
        return 1
    with open(log) as f:
        output = f.read()
    result = recap(output)
    print('\n'.join(output.rstrip('\n').split('\n')[-2:]))
    if rc or result is None or result != (0, 0, 0):
        print('ssh-converge: up over SSH did not converge with no change '
              '(exit %d, recap %s); see %s' % (rc, result, log),
              file=sys.stderr)
        for line in output.split('\n'):
            if line.startswith(('changed:', 'fatal:', 'failed:')):
                print('  ' + line, file=sys.stderr)
        return 1
    print('ssh-converge: converged with no change over SSH')
    return 0
