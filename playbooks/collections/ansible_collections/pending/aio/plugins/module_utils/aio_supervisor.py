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
"""The embedded cloud's processes under supervisord (stdlib only).

What the ``supervisord``, ``programs`` and ``wait`` modules do (the
supervisor running; programs started, or restarted after a configuration
change, until each answers; a bounded wait for a condition), and what
``playbooks/files/aioctl.py`` (``tools/aio down|status``) does: stop every
process of the cloud, or show each program's health.
"""

import concurrent.futures
import glob
import hashlib
import itertools
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

from ansible_collections.pending.aio.plugins.module_utils import aio_common
from ansible_collections.pending.aio.plugins.module_utils import aio_ports


class Supervisor(object):
    def __init__(self, conf, ctl, daemon, pidfile):
        self.conf, self.ctl, self.daemon, self.pidfile = (
            conf, ctl, daemon, pidfile)

    def running(self):
        return aio_ports.read_pid(self.pidfile) is not None

    def call(self, *words, check=True):
        out = subprocess.run([self.ctl, '-c', self.conf] + list(words),
                             capture_output=True, text=True)
        if check and out.returncode not in (0, 3):
            # 3 = some process not running (status); anything else is real.
            raise aio_common.AioError(
                'supervisorctl %s: %s%s'
                % (' '.join(words), out.stdout, out.stderr))
        return out.stdout

    # Stopped only once everything else has: RabbitMQ, seeing the epmd it
    # registered with vanish while it still runs, starts one of its own
    # (`epmd -daemon`, outside the supervisor, holding epmd's port), and the
    # next `up` then finds the port taken.  `stop all` stops every program
    # at once, so a CI run hit that race at the stock leg's down --purge.
    STOP_LAST = ('epmd',)

    def priorities(self):
        """{program: priority} from the program files supervisord includes.

        Read from the ``[include] files`` globs of the configuration (one
        file per phase): the priority each program starts in.  {} when
        the configuration cannot be read.
        """
        found, program = {}, None
        try:
            with open(self.conf) as f:
                text = f.read()
        except OSError:
            return found
        match = re.search(r'^\[include\]\s*\nfiles\s*=\s*(.+)$', text,
                          re.M)
        globs = match.group(1).split() if match else []
        for name in sorted(itertools.chain.from_iterable(
                glob.glob(os.path.join(os.path.dirname(self.conf), g))
                for g in globs)):
            with open(name) as f:
                for line in f:
                    head = re.match(r'^\[program:([^\]]+)\]', line)
                    if head:
                        program = head.group(1)
                    value = re.match(r'^priority\s*=\s*(\d+)', line)
                    if value and program:
                        found[program] = int(value.group(1))
        return found

    def stop_all(self):
        """Stop every program, in waves, the last-started wave first.

        A wave is the programs of one start priority, stopped at once
        (:meth:`call_each`): the services before the backends they talk
        to (a gunicorn whose database has gone waited out its 30 s stop
        timeout), and no wave waits on each of its programs in turn (one
        ``supervisorctl stop`` of every program stops them one after
        another in name order, far slower; measured:
        doc/source/data/code-timings.yaml, aio_supervisor_stop_all).  STOP_LAST
        ones after all the others.
        """
        names = list(self.states())
        priority = self.priorities()
        waves = {}
        for name in names:
            if name not in self.STOP_LAST:
                waves.setdefault(priority.get(name, 999), []).append(name)
        last = [n for n in names if n in self.STOP_LAST]
        for wave in [waves[key] for key in sorted(waves, reverse=True)] + [
                last]:
            try:
                self.call_each('stop', wave)
            except aio_common.AioError:
                pass   # whatever survives is killed by down()

    def call_each(self, verb, names):
        """``supervisorctl VERB NAME`` for each of ``names``, all at once.

        ``supervisorctl restart`` waits for the program's stop and its
        ``startsecs``: nova's three control services restart at once in a
        fraction of the time they take one after the other (measured:
        doc/source/data/code-timings.yaml, aio_supervisor_call_each).  An error
        of any call (a supervisorctl that cannot run) is raised here, after
        every call has ended, as :class:`~aio_common.AioError`.
        """
        if not names:
            return
        with concurrent.futures.ThreadPoolExecutor(len(names)) as pool:
            futures = {name: pool.submit(self.call, verb, name, check=False)
                       for name in names}
        errors = []
        for name, future in futures.items():
            exc = future.exception()
            if exc is not None:
                errors.append('%s: %s' % (name, exc))
        if errors:
            raise aio_common.AioError('supervisorctl %s failed: %s'
                                      % (verb, '; '.join(errors)))

    def states(self):
        """{program: state} for every program, in one supervisorctl call."""
        return self.states_and_pids()[0]

    def states_and_pids(self):
        """({program: state}, {program: pid} of the RUNNING ones).

        One ``supervisorctl status``.  The pids tell a frozen program
        (:func:`frozen`): the embedded cloud freezes a nova-compute
        (SIGSTOP) for the UNKNOWN host_status tests and thaws it (SIGCONT)
        after them; a run killed in between leaves it frozen, which
        supervisord still calls RUNNING.
        """
        states, pids = {}, {}
        for line in self.call('status', check=False).splitlines():
            words = line.replace(',', ' ').split()
            if len(words) > 1:
                states[words[0]] = words[1]
            if len(words) > 3 and words[1] == 'RUNNING' and words[2] == 'pid':
                try:
                    pids[words[0]] = int(words[3])
                except ValueError:
                    pass
        return states, pids

    def start_daemon(self, check=False):
        """Start supervisord unless it runs; True if it was (would be)."""
        if self.running():
            return False
        if check:
            return True
        rc = subprocess.call([self.daemon, '-c', self.conf])
        if rc:
            raise aio_common.AioError(
                'supervisord did not start (exit %d)' % rc)
        answered = (lambda: self.running()
                    and bool(self.call('pid', check=False).strip()))
        aio_common.poll(answered, bool, 10, 0.1,
                        lambda _: aio_common.AioError(
                            'supervisord did not answer on its socket'))
        return True

    def stop_daemon(self, timeout=120):
        """Stop every program, then supervisord itself."""
        if not self.running():
            return
        self.stop_all()
        self.call('shutdown', check=False)
        try:
            aio_common.poll(
                self.running, lambda up: not up, timeout, 0.2,
                lambda _: aio_common.AioError('supervisord still running'))
        except aio_common.AioError:
            pass  # whatever survived is killed by the caller


def frozen(pid):
    """True if process ``pid`` is stopped by a signal (state ``T``)."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] == 'T'
    except (OSError, IndexError, ValueError):
        return False


def probe(url=None, port=None, path=None):
    """Whether a program answers.

    A TCP connection to ``port``, one to the unix socket ``path``, and
    ``url`` answered below 500 (each when given).
    """
    if path:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(2)
        try:
            sock.connect(path)
        except OSError:
            return False
        finally:
            sock.close()
    if port:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=2).close()
        except OSError:
            return False
    if url:
        try:
            urllib.request.urlopen(url, timeout=3)
        except urllib.error.HTTPError as e:
            return e.code < 500
        except (urllib.error.URLError, OSError):
            return False
    return True


def fingerprint(program):
    """Hash of a program's command line and of the files it reads."""
    digest = hashlib.sha256(program.get('command', '').encode())
    for path in program.get('configs') or []:
        try:
            with open(path, 'rb') as f:
                digest.update(f.read())
        except OSError:
            digest.update(b'missing:' + path.encode())
    return digest.hexdigest()


def _stored_fingerprint(state_dir, name):
    try:
        with open(os.path.join(state_dir, 'fingerprint-%s' % name)) as f:
            return f.read().strip()
    except OSError:
        return None


def ensure(sup, programs, state_dir, log_dir, timeout=180, check=False,
           changed_configs=()):
    """Start, or restart after a config change, programs; wait for them.

    A program restarts when supervisord's view of it changed (``update``)
    or its fingerprint (command line and configuration files) differs from
    the one recorded when it last answered.  Programs are taken in waves
    of equal ``priority``, in their order: in a wave, the ones not running
    start one by one, then the changed ones restart at once.  In check
    mode the files were not rewritten: ``changed_configs`` (what the files
    step would write) names the programs whose configuration would change.

    :returns: the sorted names started or restarted (with ``check``: that
              would be).
    """
    did = set()
    if check:
        changed = sup.call('reread', check=False)
        for p in programs:
            if (p['name'] + ':' in changed
                    or set(p.get('configs') or ()) & set(changed_configs)):
                did.add(p['name'])
    else:
        for line in sup.call('update').splitlines():
            for p in programs:
                if line.startswith(p['name'] + ':'):
                    did.add(p['name'])
    states, pids = sup.states_and_pids()
    # A program left frozen (SIGSTOP) by an interrupted test run is thawed:
    # supervisord calls it RUNNING, and nothing else would wake it.  A
    # thaw does not stand for a restart: a thawed program whose
    # configuration changed restarts below too.
    names = set(p['name'] for p in programs)
    thawed = set(name for name, pid in pids.items()
                 if name in names and frozen(pid))
    for name in sorted(thawed):
        if not check:
            sup.call('signal', 'CONT', name)
    # In waves of equal priority, in the phase's order: a program that is
    # not running starts, one by one (epmd before RabbitMQ, which would
    # otherwise start an epmd of its own); the running ones whose
    # configuration changed restart at once (a leg switch: nova-api,
    # nova-conductor and nova-scheduler, all of priority 210).
    for _, wave in itertools.groupby(programs,
                                     key=lambda p: p.get('priority')):
        restart = []
        for p in wave:
            name = p['name']
            state = states.get(name, 'ABSENT')
            if state == 'ABSENT':
                if check:
                    did.add(name)
                    continue
                raise aio_common.AioError(
                    '%s: no supervisor program of that name' % name)
            if state not in ('RUNNING', 'STARTING'):
                if not check:
                    sup.call('start', name, check=False)
                did.add(name)
            elif (_stored_fingerprint(state_dir, name) != fingerprint(p)
                  and name not in did):
                restart.append(name)
                did.add(name)
        if not check:
            sup.call_each('restart', restart)
    did |= thawed
    if check:
        return sorted(did)

    waiting = list(programs)

    def fetch():
        states = sup.states()
        for p in list(waiting):
            name = p['name']
            log = os.path.join(log_dir, '%s.log' % name)
            state = states.get(name, 'ABSENT')
            if state in ('FATAL', 'EXITED', 'BACKOFF', 'STOPPED'):
                raise aio_common.AioError(
                    '%s did not start (supervisor state %s); '
                    'see %s' % (name, state, log), log)
            if state == 'RUNNING' and probe(p.get('url'), p.get('port'),
                                            p.get('socket')):
                with open(os.path.join(state_dir, 'fingerprint-%s' % name),
                          'w') as f:
                    f.write(fingerprint(p))
                waiting.remove(p)
        return {p['name']: states.get(p['name'], 'ABSENT') for p in waiting}

    def timed_out(left):
        name = next(iter(left))
        p = [q for q in programs if q['name'] == name][0]
        what = p.get('url') or ('port %s' % p['port'] if p.get('port')
                                else 'RUNNING')
        log = os.path.join(log_dir, '%s.log' % name)
        return aio_common.AioError(
            '%s did not answer on %s within %ds (state %s); '
            'see %s' % (name, what, timeout, left[name], log), log)

    aio_common.poll(fetch, lambda left: not left, timeout, 0.5, timed_out)
    return sorted(did)


def wait_until(command, timeout, name, log=None, env=None):
    """Wait for ``command`` (a shell command) to exit 0; raise at timeout.

    :returns: the seconds waited.
    """
    start = time.monotonic()
    env = aio_common.environ(env)
    aio_common.poll(
        lambda: subprocess.call(command, shell=True, env=env,
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL) == 0,
        bool, timeout, 1,
        lambda _: aio_common.AioError(
            '%s: timed out after %ds waiting for: %s; see %s'
            % (name, timeout, command, log), log))
    return time.monotonic() - start


def mentions(text, aio_dir):
    """Whether ``text`` names ``aio_dir`` or a path under it.

    A sibling such as ``aio_dir + '2'`` is not under it.
    """
    return re.search(re.escape(aio_dir) + r'(/|\s|$)', text) is not None


def our_processes(aio_dir):
    """Processes whose command line or cwd mention the state directory."""
    pids = []
    me = os.getpid()
    for entry in os.listdir('/proc'):
        if not entry.isdigit() or int(entry) == me:
            continue
        pid = int(entry)
        try:
            cwd = os.readlink('/proc/%d/cwd' % pid)
        except OSError:
            cwd = ''
        if mentions(aio_ports.cmdline(pid), aio_dir) or mentions(cwd, aio_dir):
            if pid not in aio_ports.ancestors(me):
                pids.append(pid)
    return pids


def down(sup, aio_dir, netns=(), purge=False):
    """Stop every process of the cloud; with ``purge`` wipe its data."""
    sup.stop_daemon()
    # Whatever survived (a stuck worker, a daemon started by hand): TERM,
    # then KILL.
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = our_processes(aio_dir)
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        try:
            aio_common.poll(lambda: [p for p in pids
                                     if os.path.exists('/proc/%d' % p)],
                            lambda alive: not alive, 10, 0.2,
                            lambda _: aio_common.AioError(''))
        except aio_common.AioError:
            pass
    for ns in netns:
        subprocess.call(['ip', 'netns', 'delete', ns],
                        stderr=subprocess.DEVNULL)
    left = our_processes(aio_dir)
    if left:
        raise aio_common.AioError(
            'processes still running after down: %s' % ', '.join(
                '%d (%s)' % (p, aio_ports.cmdline(p)[:80]) for p in left))
    if purge:
        for name in ('data', 'state', 'run', 'etc', 'tempest', 'wsgi',
                     'clouds.yaml', 'openrc', 'claims.yaml'):
            path = os.path.join(aio_dir, name)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.unlink(path)


def status(sup, checks):
    """``[(program, state, health)]`` and the number of unhealthy ones."""
    rows, bad = [], 0
    states, pids = sup.states_and_pids()
    for name, state in states.items():
        check = checks.get(name)
        if state != 'RUNNING':
            health = '-'
            bad += 1
        elif name in pids and frozen(pids[name]):
            health = 'FROZEN (stopped by SIGSTOP; `up` thaws it)'
            bad += 1
        elif check:
            ok = probe(check.get('url'), check.get('port'),
                       check.get('socket'))
            health = ('answers' if ok else 'NOT ANSWERING') + ' (%s)' % (
                check.get('url') or check.get('socket')
                or 'port %s' % check.get('port'))
            bad += not ok
        else:
            health = 'running'
        rows.append((name, state, health))
    return rows, bad
