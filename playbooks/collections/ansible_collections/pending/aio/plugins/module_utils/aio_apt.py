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
"""The system packages of the embedded cloud, by apt (stdlib only).

What the ``apt_packages`` module does: install the missing ones of a set
of packages, naming the one apt could not provide, and remember in a
marker file that all of them are there.
"""

import os
import subprocess

from ansible_collections.pending.aio.plugins.module_utils import aio_common


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
                raise aio_common.AioError(
                    'apt could not install %s; see %s' % (what, log), log)
    _remember(marker, names)
    return missing


def _remember(marker, content):
    if marker:
        os.makedirs(os.path.dirname(marker), exist_ok=True)
        with open(marker, 'w') as f:
            f.write(content)
