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
"""What ran: the versions of the suite and Tempest, and the suite's hash.

The suite is every file of the ``pending_tempest_plugin`` package as the
distribution installs it (the tests, the catalogue, the runner, the
configuration), byte for byte; compiled files (``__pycache__``) are not
part of it.  Its list, ``SHA256SUMS`` text (``sha256  path`` lines sorted
by path, as ``sha256sum`` prints and checks them), is what ``tox -e
build`` writes to ``dist/SUITE-SHA256SUMS`` from the wheel it builds; the
suite's hash is the sha256 of that text, so anyone can compute it with
``sha256sum SUITE-SHA256SUMS``.

A development build is one no release tag names: pbr's ``X.Y.Z.devN``
versions of an untagged commit, or a plugin that is not installed as a
distribution at all.  It can run and report, but never certifies.
"""

import hashlib
import json
import os

PACKAGE = 'pending_tempest_plugin'
DISTRIBUTION = 'pending-tempest-plugin'
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def versions():
    """plugin_version, plugin_git_sha and tempest_version (None: absent)."""
    from importlib import metadata

    out = {'plugin_version': None, 'plugin_git_sha': None,
           'tempest_version': None}
    try:
        dist = metadata.distribution(DISTRIBUTION)
        out['plugin_version'] = dist.version
        pbr = json.loads(dist.read_text('pbr.json') or '{}')
        out['plugin_git_sha'] = pbr.get('git_version')
    except (metadata.PackageNotFoundError, ValueError):
        pass
    try:
        out['tempest_version'] = metadata.version('tempest')
    except metadata.PackageNotFoundError:
        pass
    return out


def is_development(version):
    """Whether ``version`` is not a release's (or is unknown)."""
    return not version or 'dev' in str(version) or '+' in str(version)


def _skipped(rel):
    parts = rel.split('/')
    return '__pycache__' in parts or rel.endswith(('.pyc', '.pyo'))


def sha256sums(entries):
    """SHA256SUMS text of ``(path, bytes)`` pairs, sorted by path."""
    return ''.join('%s  %s\n' % (hashlib.sha256(data).hexdigest(), path)
                   for path, data in sorted(entries) if not _skipped(path))


def installed_entries(package_dir=PACKAGE_DIR):
    """``(package-relative path, bytes)`` of every file of the package."""
    top = os.path.dirname(package_dir)
    for root, dirs, files in os.walk(package_dir):
        dirs[:] = sorted(d for d in dirs if d != '__pycache__')
        for name in sorted(files):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, top).replace(os.sep, '/')
            if _skipped(rel):
                continue
            with open(path, 'rb') as f:
                yield rel, f.read()


def wheel_entries(wheel):
    """``(path, bytes)`` of the package's files in a wheel."""
    import zipfile

    with zipfile.ZipFile(wheel) as z:
        for name in sorted(z.namelist()):
            if name.startswith(PACKAGE + '/') and not name.endswith('/'):
                yield name, z.read(name)


def installed_sums():
    """The SHA256SUMS text of the installed suite."""
    return sha256sums(installed_entries())


def digest(sums_text):
    """The suite's hash: the sha256 of its SHA256SUMS text."""
    return hashlib.sha256(sums_text.encode()).hexdigest()


def main(argv=None):
    """``python -m ...suite WHEEL``: the wheel's SUITE-SHA256SUMS text."""
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit('usage: python -m pending_tempest_plugin.conformance.suite '
                 'WHEEL')
    sys.stdout.write(sha256sums(wheel_entries(argv[0])))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
