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
"""The embedded cloud's lifecycle: up, down, status; its RSS, constraints.

``up`` runs ``ansible-playbook playbooks/aio.yaml`` with ``-e NAME=VALUE``
for each word of ``AIO_BASE_VARS`` then of ``AIO_EXTRA_VARS`` (split on
white space: no value, an AIO_DIR path either, may contain a space; the
extra variables win), then the arguments given; ``down`` and ``status``
call ``playbooks/files/aioctl.py`` with what the last ``up`` wrote in
``$AIO_DIR/state/aio.env`` (:func:`aioctl`, the one place that calls it).
"""

import os
import subprocess
import sys

from pending_aio import aio_dir
from pending_aio import python_path
from pending_aio import REPO

AIOCTL = os.path.join(REPO, 'playbooks', 'files', 'aioctl.py')


def environment():
    """os.environ for ansible-playbook and aioctl.py.

    AIO_DIR (kept when set) and ANSIBLE_CONFIG set; the checkout taken off
    PYTHONPATH again (tools/aio puts it there for ``python -m pending_aio``
    only: the playbook's commands do not see it).
    """
    os.environ['AIO_DIR'] = aio_dir()
    os.environ['ANSIBLE_CONFIG'] = os.path.join(REPO, 'playbooks',
                                                'ansible.cfg')
    path = python_path(os.environ.get('PYTHONPATH'), checkout=False)
    if path:
        os.environ['PYTHONPATH'] = path
    else:
        os.environ.pop('PYTHONPATH', None)
    return os.environ


def load_env():
    """The variables of $AIO_DIR/state/aio.env, or None without a cloud.

    The file is shell (written by the playbook): bash reads it.
    """
    path = os.path.join(aio_dir(), 'state', 'aio.env')
    if not os.path.isfile(path):
        print('no embedded cloud in %s (run: tox -e aio)' % aio_dir())
        return None
    names = ('AIO_SUP_ARGS', 'AIO_NETNS', 'AIO_STATUS_CHECKS')
    out = subprocess.run(
        ['bash', '-c', '. "$1"; printf "%s\\0" ' + ' '.join(
            '"$%s"' % n for n in names), 'aio.env', path],
        check=True, stdout=subprocess.PIPE, text=True).stdout
    return dict(zip(names, out.split('\0')))


def aioctl(action, env, *args):
    """Replace this process with ``aioctl.py ACTION`` as the cloud runs it."""
    argv = ['python3', AIOCTL, action] + env['AIO_SUP_ARGS'].split()
    argv += list(args)
    os.execvpe(argv[0], argv, environment())


def up(args):
    extra = []
    for kv in (os.environ.get('AIO_BASE_VARS', '').split()
               + os.environ.get('AIO_EXTRA_VARS', '').split()):
        extra += ['-e', kv]
    argv = ['ansible-playbook', os.path.join(REPO, 'playbooks', 'aio.yaml')]
    # Whatever this `up` leaves, it is no longer the one the last verdict
    # converged the cloud from (conformance.UP_RECORD).
    forget_up()
    os.execvpe(argv[0], argv + extra + list(args), environment())


def up_record():
    """The inputs of the last `up` of ``tox -e conformance`` (its file)."""
    return os.path.join(aio_dir(), 'state', 'conformance-up')


def forget_up():
    """The cloud may differ from what the last verdict's `up` made."""
    try:
        os.remove(up_record())
    except OSError:
        pass


def down(args):
    if any(arg != '--purge' for arg in args):
        print('usage: tools/aio down [--purge]', file=sys.stderr)
        return 2
    env = load_env()
    if env is None:
        return 0
    netns = []
    for ns in env['AIO_NETNS'].split():
        netns += ['--netns', ns]
    aioctl('down', env, '--aio-dir', aio_dir(), *(netns + list(args)))


def status(args):
    env = load_env()
    if env is None:
        return 3
    aioctl('status', env, '--checks', env['AIO_STATUS_CHECKS'], *args)


def _children():
    """{ppid: [pid, ...]} of every process, from /proc."""
    children = {}
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open('/proc/%s/stat' % pid) as f:
                ppid = int(f.read().rsplit(')', 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(pid))
    return children


def descendants(pid, children=None):
    """The pids of every process below ``pid`` (not ``pid`` itself)."""
    children = _children() if children is None else children
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _rss(pid):
    """The RSS of a process in MiB (0 if it is gone)."""
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def rss(args):
    """The RSS of every process of the cloud, per supervised program."""
    print('memory (RSS of the cloud\'s processes):')
    listing = subprocess.run(
        [os.path.join(aio_dir(), 'bin', 'supervisorctl'), 'status'],
        stdout=subprocess.PIPE, text=True).stdout
    programs = {}
    for line in listing.splitlines():
        words = line.replace(',', ' ').split()
        if 'pid' in words:
            programs[int(words[words.index('pid') + 1])] = words[0]
    with open(os.path.join(aio_dir(), 'run', 'supervisord.pid')) as f:
        sup = int(f.read())
    children = _children()
    total = 0.0
    rows = []
    for top in children.get(sup, []):
        procs = [top] + descendants(top, children)
        mib = sum(_rss(p) for p in procs)
        rows.append((mib, top, programs.get(top, str(top)), len(procs)))
        total += mib
    for mib, top, name, n in sorted(rows, reverse=True):
        print('  %7.0f MiB  %-22s (%d processes)' % (mib, name, n))
    total += _rss(sup)
    print('  %7.0f MiB  total (with supervisord), %.2f GiB'
          % (total, total / 1024))
    return 0


def constraints(args):
    """Regenerate playbooks/roles/aio_python/files/constraints/ from the cloud.

    Run it after changing aio_pip_packages or aio_tools_pip_packages, once
    that cloud passed `tox -e functional`, and commit the result.  nova is
    left out (it comes from the reference tree or from nova==34.0.0
    itself), and so is this plugin (installed editable).
    """
    uv = os.path.join(aio_dir(), 'venvs', 'uv', 'bin', 'uv')
    if not os.access(uv, os.X_OK):
        print('constraints: no %s (run: tox -e aio)' % uv,
              file=sys.stderr)
        return 1
    for venv in ('openstack', 'tools'):
        out = os.path.join(REPO, 'playbooks', 'roles', 'aio_python', 'files',
                           'constraints', venv + '.txt')
        frozen = subprocess.run(
            [uv, 'pip', 'freeze', '-q', '--python',
             os.path.join(aio_dir(), 'venvs', venv, 'bin', 'python'),
             '--exclude-editable'],
            check=True, stdout=subprocess.PIPE, text=True).stdout
        pins = [line for line in frozen.splitlines()
                if not line.startswith(('nova ', 'nova=='))]
        with open(out, 'w') as f:
            f.write('# Pinned versions of everything in the %s virtualenv '
                    'of the embedded\n# cloud (its upper-constraints): the '
                    'set CI last proved.  Regenerate\n# with tools/aio '
                    'constraints after changing the package lists.\n'
                    % venv)
            f.writelines(line + '\n' for line in pins)
        print('constraints: %s (%d packages)' % (out, len(pins)))
    return 0
