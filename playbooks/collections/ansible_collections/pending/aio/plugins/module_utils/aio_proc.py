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
"""Process control of the embedded cloud (standard library only).

The modules of this collection are thin wrappers around these functions,
and ``playbooks/files/aioctl.py`` (``tools/aio down|status``) uses them
too.  A failure raises :class:`AioError`, whose text names the service and
its log file and ends with the log's tail.  Each function that may change
something takes ``check`` (report what would change, change nothing) and
returns what it changed.

Waits use :func:`poll`, the one polling loop of the code that runs on the
cloud's host (the plugin's own, ``pending_tempest_plugin.common.polling``,
is not installed there).
"""

import concurrent.futures
import glob
import hashlib
import itertools
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request


class AioError(Exception):
    """A step failed: ``message``, then the last lines of ``log``."""

    def __init__(self, message, log=None, tail=25):
        super().__init__(message)
        self.message = message
        self.log = log
        self.tail = tail

    def __str__(self):
        text = self.message
        if self.log and os.path.exists(self.log):
            with open(self.log, errors='replace') as f:
                lines = f.readlines()[-self.tail:]
            text += '\n---- last %d lines of %s ----\n%s' % (
                self.tail, self.log, ''.join(lines))
        return text


def poll(fetch, done, timeout, interval, timed_out, what='wait', log=None):
    """Call ``fetch()`` until ``done(value)``; return that value.

    ``done`` may raise to end the wait early.  Past ``timeout`` seconds,
    ``timed_out(value)`` is raised.  Each change of the value is appended
    to ``log`` (a list) with the seconds since the wait began.
    """
    start = time.monotonic()
    last = object()
    while True:
        value = fetch()
        if log is not None and value != last:
            log.append('%s: %s (after %.1f s)'
                       % (what, value, time.monotonic() - start))
            last = value
        if done(value):
            return value
        if time.monotonic() - start >= timeout:
            raise timed_out(value)
        time.sleep(interval)


# ---------------------------------------------------------------- apt ----

def installed(pkg):
    out = subprocess.run(
        ['dpkg-query', '-W', '-f=${Status}', pkg],
        capture_output=True, text=True)
    return out.returncode == 0 and out.stdout.endswith(' installed')


def apt_install(packages, log, marker=None, check=False):
    """Install the missing ones of ``packages`` ({name: description}).

    ``marker``: a file written once every package is installed, holding
    their names; while it holds the same names, dpkg is not even asked.

    :returns: the names that were (or, with ``check``, would be) installed.
    """
    names = ''.join('%s\n' % p for p in packages)
    try:
        with open(marker or '') as f:
            if f.read() == names:
                return []
    except OSError:
        pass
    missing = [p for p in packages if not installed(p)]
    if check:
        return missing
    if not missing:
        _remember(marker, names)
        return missing
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, 'a') as out:
        for cmd in (['apt-get', 'update'],
                    ['apt-get', 'install', '-y', '--no-install-recommends']
                    + missing):
            out.write('$ %s\n' % ' '.join(cmd))
            out.flush()
            rc = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT,
                                 env=env)
            if rc:
                # Name the package(s) apt could not provide.
                bad = [p for p in missing if subprocess.run(
                    ['apt-cache', 'show', p], capture_output=True
                ).returncode != 0]
                what = ', '.join('%s (%s)' % (p, packages[p])
                                 for p in (bad or missing))
                raise AioError('apt could not install %s; see %s'
                               % (what, log), log)
    _remember(marker, names)
    return missing


def _remember(marker, content):
    if marker:
        os.makedirs(os.path.dirname(marker), exist_ok=True)
        with open(marker, 'w') as f:
            f.write(content)


# -------------------------------------------------------------- ports ----

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
        raise AioError('; '.join(problems) + '. Stop that process or change '
                       'aio_ports in playbooks/group_vars/all.yaml.')


# -------------------------------------------------------------- steps ----

def _environ(extra):
    """This process's environment with ``extra`` (values as text)."""
    if not extra:
        return None
    return dict(os.environ, **{k: str(v) for k, v in extra.items()})


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
        env = _environ(dict(step.get('env') or {},
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
        raise AioError('%s%s: %s failed (exit %d); see %s'
                       % (others, step['name'], step['what'], rc,
                          step['log']), step['log'])
    return [s['name'] for s in steps]


# ------------------------------------------------------------- cached ----

def cache_key(key, data, command):
    """Hash of ``key``, the input and every ``.py`` script in ``command``."""
    digest = hashlib.sha256(key.encode() + b'\0' + data)
    # A changed script is a changed input: its text is part of the key.
    for arg in command:
        if arg.endswith('.py') and os.path.isfile(arg):
            with open(arg, 'rb') as f:
                digest.update(b'\0' + f.read())
    return digest.hexdigest()


def cached(path, key, command, data, env=None, check=False):
    """Run ``command`` once per distinct input; replay its output after.

    The output is stored in ``path`` (in the cloud's data directory, so
    ``down --purge`` forgets it with the data it describes) under a hash
    of ``key``, of ``data`` (the command's standard input) and of the text
    of every ``.py`` script in the command.

    :returns: ``(ran, stdout, stderr)``; ``ran`` is False when the stored
              output was replayed.  With ``check``, a command that would
              run does not: the stored output, if any, is returned.
    """
    digest = cache_key(key, data, command)
    stored = None
    try:
        with open(path) as f:
            stored_key, _, stored = f.read().partition('\n')
        if stored_key == digest:
            return False, stored, ''
    except FileNotFoundError:
        pass
    if check:
        return True, stored or '', ''
    proc = subprocess.run(command, input=data, capture_output=True,
                          env=_environ(env))
    output = proc.stdout.decode(errors='replace')
    errors = proc.stderr.decode(errors='replace')
    if proc.returncode:
        raise AioError('%s failed (exit %d): %s%s'
                       % (command[0], proc.returncode, errors, output))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + '.tmp'
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
              'w') as f:
        f.write(digest + '\n' + output)
    os.replace(tmp, path)
    return True, output, errors


# -------------------------------------------------------------- files ----

def write_files(spec, check=False):
    """Create directories and write files whose content or mode differs.

    ``spec``: {"dirs": [{"path", "owner"?, "mode"?}], "files": [{"path",
    "content", "mode"?, "secret"?}]}.  One module run for every
    configuration file of the cloud: far cheaper than one ``template`` task
    each.

    :returns: ``(changed paths, diffs)``; a diff is Ansible's
              {before, after, before_header, after_header}; the content of
              a secret file is never in one.
    """
    did, diffs = [], []
    for d in spec.get('dirs', []):
        if not os.path.isdir(d['path']):
            if not check:
                os.makedirs(d['path'])
            did.append(d['path'])
            diffs.append({'before_header': d['path'],
                          'after_header': d['path'],
                          'before': 'absent\n', 'after': 'directory\n'})
        owner = d.get('owner')
        if owner and os.path.isdir(d['path']):
            st = os.stat(d['path'])
            pw = pwd.getpwnam(owner)
            if (st.st_uid, st.st_gid) != (pw.pw_uid, pw.pw_gid):
                if not check:
                    shutil.chown(d['path'], owner, owner)
                did.append(d['path'])
        mode = d.get('mode')
        if (mode and os.path.isdir(d['path'])
                and os.stat(d['path']).st_mode & 0o7777 != int(mode, 8)):
            if not check:
                os.chmod(d['path'], int(mode, 8))
            did.append(d['path'])
    for f in spec.get('files', []):
        path, content = f['path'], f['content']
        mode = int(str(f.get('mode', '0644')), 8)
        try:
            with open(path) as fh:
                before = fh.read()
        except OSError:
            before = None
        if before != content:
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                tmp = path + '.aio-tmp'
                with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                                  mode), 'w') as fh:
                    fh.write(content)
                os.chmod(tmp, mode)
                os.replace(tmp, path)
            did.append(path)
            if f.get('secret'):
                diffs.append({'before_header': path, 'after_header': path,
                              'before': '(secret content)\n',
                              'after': '(secret content, changed)\n'})
            else:
                diffs.append({'before_header': path, 'after_header': path,
                              'before': before or '', 'after': content})
        elif os.stat(path).st_mode & 0o7777 != mode:
            old = os.stat(path).st_mode & 0o7777
            if not check:
                os.chmod(path, mode)
            did.append(path)
            diffs.append({'before_header': path + ' (mode)',
                          'after_header': path + ' (mode)',
                          'before': '%04o\n' % old, 'after': '%04o\n' % mode})
    return did, diffs


# --------------------------------------------------------- supervisor ----

class Supervisor(object):
    def __init__(self, conf, ctl, daemon, pidfile):
        self.conf, self.ctl, self.daemon, self.pidfile = (
            conf, ctl, daemon, pidfile)

    def running(self):
        return read_pid(self.pidfile) is not None

    def call(self, *words, check=True):
        out = subprocess.run([self.ctl, '-c', self.conf] + list(words),
                             capture_output=True, text=True)
        if check and out.returncode not in (0, 3):
            # 3 = some process not running (status); anything else is real.
            raise AioError('supervisorctl %s: %s%s'
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
        doc/source/data/code-timings.yaml, aio_proc_stop_all).  STOP_LAST
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
            except AioError:
                pass   # whatever survives is killed by down()

    def call_each(self, verb, names):
        """``supervisorctl VERB NAME`` for each of ``names``, all at once.

        ``supervisorctl restart`` waits for the program's stop and its
        ``startsecs``: nova's three control services restart at once in a
        fraction of the time they take one after the other (measured:
        doc/source/data/code-timings.yaml, aio_proc_call_each).  An error
        of any call (a supervisorctl that cannot run) is raised here, after
        every call has ended, as :class:`AioError`.
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
            raise AioError('supervisorctl %s failed: %s'
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
            raise AioError('supervisord did not start (exit %d)' % rc)
        answered = (lambda: self.running()
                    and bool(self.call('pid', check=False).strip()))
        poll(answered, bool, 10, 0.1,
             lambda _: AioError('supervisord did not answer on its socket'))
        return True

    def stop_daemon(self, timeout=120):
        """Stop every program, then supervisord itself."""
        if not self.running():
            return
        self.stop_all()
        self.call('shutdown', check=False)
        try:
            poll(self.running, lambda up: not up, timeout, 0.2,
                 lambda _: AioError('supervisord still running'))
        except AioError:
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
                raise AioError('%s: no supervisor program of that name'
                               % name)
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
                raise AioError('%s did not start (supervisor state %s); '
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
        return AioError('%s did not answer on %s within %ds (state %s); '
                        'see %s' % (name, what, timeout, left[name], log),
                        log)

    poll(fetch, lambda left: not left, timeout, 0.5, timed_out)
    return sorted(did)


def wait_until(command, timeout, name, log=None, env=None):
    """Wait for ``command`` (a shell command) to exit 0; raise at timeout.

    :returns: the seconds waited.
    """
    start = time.monotonic()
    env = _environ(env)
    poll(lambda: subprocess.call(command, shell=True, env=env,
                                 stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL) == 0,
         bool, timeout, 1,
         lambda _: AioError('%s: timed out after %ds waiting for: %s; see %s'
                            % (name, timeout, command, log), log))
    return time.monotonic() - start


# ---------------------------------------------------------------- down ----

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
        if mentions(cmdline(pid), aio_dir) or mentions(cwd, aio_dir):
            if pid not in ancestors(me):
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
            poll(lambda: [p for p in pids
                          if os.path.exists('/proc/%d' % p)],
                 lambda alive: not alive, 10, 0.2, lambda _: AioError(''))
        except AioError:
            pass
    for ns in netns:
        subprocess.call(['ip', 'netns', 'delete', ns],
                        stderr=subprocess.DEVNULL)
    left = our_processes(aio_dir)
    if left:
        raise AioError('processes still running after down: %s' % ', '.join(
            '%d (%s)' % (p, cmdline(p)[:80]) for p in left))
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
