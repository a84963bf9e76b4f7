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
"""A certificate anyone can check: the signed bundle of a run, its verifier.

``pending-conformance bundle`` writes one archive (``tar.gz``) of a run:
every artifact of every attempt, the redacted tempest.conf, the claims, the
catalogue that ran and the tests it declared, the installed suite's
``SHA256SUMS``, the command lines and ``product.yaml``; ``manifest.json``
names the sha256 of each of them, the suite's hash, the versions and each
scope's status and claims; ``manifest.json.sig`` is an OpenSSH signature of
the manifest (``ssh-keygen -Y sign -n NAMESPACE``), which anyone checks
with ``ssh-keygen -Y verify`` and the vendor's published allowed_signers
line; ``SHA256SUMS`` lets ``sha256sum -c`` check every file.

``pending-conformance verify`` checks all of that and derives the verdict
again from the bundle's own streams, claims and catalogue.  Every refusal
raises BundleError naming the file or field.
"""

import datetime
import hashlib
import io
import json
import os
import re
import subprocess
import tarfile
import tempfile

import yaml

from pending_tempest_plugin.conformance import catalogue
from pending_tempest_plugin.conformance import suite
from pending_tempest_plugin.conformance import verdict as verdict_mod
from pending_tempest_plugin.runner import report as report_mod
from pending_tempest_plugin.runner import workspace as ws

# The signature's namespace (ssh-keygen -n): a signature made for anything
# else (a git commit, a file) never verifies as a bundle's.
NAMESPACE = 'pending-conformance-bundle'
TOP = 'pending-conformance-bundle'
FORMAT = 1
PRODUCT_KEYS = ('vendor', 'product', 'version', 'cloud', 'region')
# The run's artifacts, in the results folder (each attempt's stream and log
# in attempt-N/ beside them).
ARTIFACTS = ('report.json', 'report.txt', 'results.subunit', 'results.xml',
             'results.html', 'tempest.conf', 'tempest.log')
# What the bundle adds: the catalogue and tests that ran, the suite's list.
CATALOGUE = 'catalogue/requirements.yaml'
DECLARED = 'catalogue/declared-tests.json'
SUITE_SUMS = 'suite/SUITE-SHA256SUMS'
UNSIGNED = ('manifest.json', 'manifest.json.sig', 'SHA256SUMS')
# Redacted values, as the runner writes them.
_REDACTED = ('', '***', 'null', 'none', '<omitted>', "''", '""')
_PRIVATE_KEY = re.compile(r'-----BEGIN [A-Z ]*PRIVATE KEY-----')
_FERNET = re.compile(r'\bgAAAAA[0-9A-Za-z_-]{40,}')
_PAIR = re.compile(r'^\s*"?(?P<key>[A-Za-z_][\w.-]*)"?\s*[:=]\s*'
                   r'(?P<value>.*?)\s*,?\s*$')


class BundleError(Exception):
    """The bundle cannot be made, or is refused: the message says why."""


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def _sha256sums(listing):
    """``sha256sum`` text of a manifest's ``files`` ({name: sha256})."""
    return ''.join('%s  %s\n' % (sha, name)
                   for name, sha in sorted(listing.items()))


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%SZ')


def load_product(path, text=None):
    """product.yaml: vendor, product, version, cloud, region (strings)."""
    try:
        if text is None:
            with open(path) as f:
                text = f.read()
        data = yaml.safe_load(text)
    except (OSError, yaml.YAMLError) as e:
        raise BundleError('product file %s: %s' % (path, e))
    if not isinstance(data, dict):
        raise BundleError('product file %s: a mapping of %s' % (
            path, ', '.join(PRODUCT_KEYS)))
    unknown = sorted(set(map(str, data)) - set(PRODUCT_KEYS))
    if unknown:
        raise BundleError('product file %s: unknown key(s) %s (it has %s)'
                          % (path, ', '.join(unknown),
                             ', '.join(PRODUCT_KEYS)))
    problems = [k for k in PRODUCT_KEYS
                if not isinstance(data.get(k), str) or not data[k].strip()]
    if problems:
        raise BundleError('product file %s: %s must be non-empty text '
                          '(quote versions: "1.10")'
                          % (path, ', '.join(problems)))
    return {k: data[k].strip() for k in PRODUCT_KEYS}


def secrets_left(name, data):
    """Lines of file ``name`` where a secret survived redaction."""
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return []
    found = []
    structured = not name.endswith('.log') and not name.endswith(
        '.subunit')
    for number, line in enumerate(text.splitlines(), 1):
        if _PRIVATE_KEY.search(line):
            found.append('%s:%d: a private key' % (name, number))
        elif _FERNET.search(line):
            found.append('%s:%d: a Keystone token' % (name, number))
        elif structured:
            match = _PAIR.match(line)
            if match and ws.is_secret(match.group('key')) and (
                    match.group('value').strip('"\'').lower()
                    not in _REDACTED):
                found.append('%s:%d: %s is not redacted'
                             % (name, number, match.group('key')))
    return found


def _run_files(results, header):
    """{bundle name: path} of the run's artifacts, every attempt's."""
    files = {}
    for name in ARTIFACTS:
        path = os.path.join(results, name)
        if not os.path.isfile(path):
            raise BundleError('%s: missing (the run did not finish, or this '
                              'is not its artifacts folder)' % path)
        files['results/' + name] = path
    for attempt in header.get('attempts') or ():
        for rel in (attempt['subunit'], os.path.join(
                os.path.dirname(attempt['subunit']), 'tempest.log')):
            path = os.path.join(results, rel)
            if not os.path.isfile(path):
                raise BundleError('%s: missing (attempt %s)'
                                  % (path, attempt.get('attempt')))
            files['results/' + rel] = path
    return files


def _sign(key, manifest):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'manifest.json')
        with open(path, 'wb') as f:
            f.write(manifest)
        proc = subprocess.run(['ssh-keygen', '-q', '-Y', 'sign', '-f', key,
                               '-n', NAMESPACE, path],
                              stdin=subprocess.DEVNULL,
                              capture_output=True, text=True)
        if proc.returncode:
            raise BundleError('ssh-keygen -Y sign with %s failed: %s' % (
                key, (proc.stderr or proc.stdout).strip()))
        with open(path + '.sig', 'rb') as f:
            return f.read()


def make(root, product_path, key, output=None, results=None, argv=None):
    """Write the signed bundle of the run in ``results``; its path."""
    from pending_tempest_plugin.runner import cli

    results = os.path.abspath(results or os.path.join(root, 'results'))
    ws.load_state(root)   # a workspace of pending-conformance init
    report_path = os.path.join(results, 'report.json')
    try:
        with open(report_path) as f:
            rep = json.load(f)
        header = rep['header']
    except (OSError, ValueError, KeyError) as e:
        raise BundleError('%s: %s' % (report_path, e))
    version = header.get('plugin_version')
    if header.get('development_build', True) or suite.is_development(
            version):
        raise BundleError('%s: plugin_version %s is a development build '
                          '(no release names it): a bundle certifies only '
                          'a release' % (report_path, version))
    if not cli._tempest_supported(header.get('tempest_version')):
        raise BundleError('%s: tempest_version %s is outside the supported '
                          'range %s to below %s' % ((
                              report_path, header.get('tempest_version'))
                              + cli.SUPPORTED_TEMPEST))
    sums = suite.installed_sums()
    if suite.digest(sums) != header.get('suite_sha256'):
        raise BundleError('%s: suite_sha256 %s, but the suite installed now '
                          'is %s: bundle with the suite that ran'
                          % (report_path, header.get('suite_sha256'),
                             suite.digest(sums)))
    with open(catalogue.CATALOGUE_PATH, 'rb') as f:
        cat_data = f.read()
    if _sha(cat_data) != header.get('catalogue_sha256'):
        raise BundleError('%s: catalogue_sha256 is not the installed '
                          "catalogue's" % report_path)
    product = load_product(product_path)
    if header.get('region') and product['region'] != header['region']:
        raise BundleError('product file %s: region %s, but the run was in '
                          'region %s' % (product_path, product['region'],
                                         header['region']))
    if not os.path.isfile(key):
        raise BundleError('--sign-key %s: no such file' % key)
    declared, _ = catalogue.scan_tests()
    contents = {}
    for name, path in _run_files(results, header).items():
        with open(path, 'rb') as f:
            contents[name] = f.read()
    commands = [a.get('command') for a in header.get('attempts') or ()
                if a.get('command')] or [header.get('command') or []]
    contents.update({
        CATALOGUE: cat_data,
        DECLARED: json.dumps([{'idempotent_id': t.idempotent_id,
                               'name': t.name,
                               'requirements': list(t.requirements)}
                              for t in declared], indent=1,
                             sort_keys=True).encode(),
        SUITE_SUMS: sums.encode(),
        'claims.yaml': yaml.safe_dump(ws.redact_claims(
            header.get('claims') or {}), sort_keys=True).encode(),
        'product.yaml': yaml.safe_dump(product, sort_keys=False).encode(),
        'command.txt': ''.join(
            ' '.join(c) + '\n' for c in commands + [argv or []]
            if c).encode()})
    for name, data in sorted(contents.items()):
        left = secrets_left(name, data)
        if left:
            raise BundleError('a secret survived redaction: %s'
                              % '; '.join(left[:3]))
    profile = (header.get('claims') or {}).get('host_status_policy_profile')
    manifest = {
        'format': FORMAT, 'created': _now(), 'product': product,
        'files': {n: _sha(d) for n, d in sorted(contents.items())},
        'suite': {'sha256': suite.digest(sums),
                  'files': len(sums.splitlines()),
                  'plugin_version': version,
                  'plugin_git_sha': header.get('plugin_git_sha')},
        'tempest_version': header.get('tempest_version'),
        'catalogue': {'version': header.get('catalogue_version'),
                      'sha256': header.get('catalogue_sha256')},
        'cloud_id': header.get('cloud_id'), 'region': header.get('region'),
        'mode': header.get('mode'), 'policy_profile': profile,
        'scopes': [{'name': s['name'], 'status': s['status'],
                    'claims': s['claims']} for s in rep.get('scopes') or ()],
        'verdict': rep['verdict']['lines'][:2],
        'attempts': len(header.get('attempts') or ()) or 1}
    manifest_data = json.dumps(manifest, indent=1, sort_keys=True).encode()
    contents['manifest.json'] = manifest_data
    contents['manifest.json.sig'] = _sign(key, manifest_data)
    contents['SHA256SUMS'] = _sha256sums(manifest['files']).encode()
    output = os.path.abspath(output or os.path.join(root, 'bundle.tar.gz'))
    with tarfile.open(output + '.tmp', 'w:gz') as tar:
        for name, data in sorted(contents.items()):
            info = tarfile.TarInfo('%s/%s' % (TOP, name))
            info.size, info.mode = len(data), 0o644
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
    os.replace(output + '.tmp', output)
    return output


# --- verify ---------------------------------------------------------------

def _read_bundle(path):
    """{name: bytes} of a bundle's files (regular files under TOP only)."""
    try:
        tar = tarfile.open(path, 'r:*')
    except (OSError, tarfile.TarError) as e:
        raise BundleError('%s: not a bundle (%s)' % (path, e))
    files = {}
    with tar:
        for member in tar.getmembers():
            name = member.name
            if member.isdir():
                continue
            if (not member.isfile() or not name.startswith(TOP + '/')
                    or '..' in name.split('/')):
                raise BundleError('%s: %s is not a file of a bundle'
                                  % (path, name))
            files[name[len(TOP) + 1:]] = tar.extractfile(member).read()
    return files


def _ssh_keygen(args, stdin=None):
    try:
        return subprocess.run(['ssh-keygen'] + args, input=stdin,
                              capture_output=True)
    except OSError as e:
        raise BundleError('ssh-keygen (OpenSSH 8.2 or later) is needed to '
                          'check the signature: %s' % e)


def _check_signature(files, allowed, principal=None):
    if 'manifest.json' not in files:
        raise BundleError('manifest.json: missing (not a bundle)')
    if 'manifest.json.sig' not in files:
        raise BundleError('manifest.json.sig: missing: the bundle is '
                          'unsigned')
    if not os.path.isfile(allowed):
        raise BundleError('--allowed-signers %s: no such file' % allowed)
    with tempfile.TemporaryDirectory() as tmp:
        sig = os.path.join(tmp, 'manifest.json.sig')
        with open(sig, 'wb') as f:
            f.write(files['manifest.json.sig'])
        found = _ssh_keygen(['-Y', 'find-principals', '-s', sig, '-f',
                             allowed])
        principals = found.stdout.decode().split()
        if found.returncode or not principals:
            raise BundleError('manifest.json.sig: made by no key of %s '
                              '(a wrong key, or not a signature)' % allowed)
        if principal and principal not in principals:
            raise BundleError('manifest.json.sig: made by %s, not by '
                              '--principal %s'
                              % (', '.join(principals), principal))
        principals = [principal] if principal else principals
        checked = _ssh_keygen(['-Y', 'verify', '-f', allowed, '-I',
                               principals[0], '-n', NAMESPACE, '-s', sig],
                              stdin=files['manifest.json'])
        if checked.returncode:
            raise BundleError(
                'manifest.json.sig: does not verify manifest.json as %s in '
                'namespace %s (the manifest changed after signing): %s'
                % (principals[0], NAMESPACE,
                   checked.stderr.decode().strip()))
    return principals[0]


def _check_hashes(files, manifest):
    listed = manifest.get('files') or {}
    for name in sorted(files):
        if name not in listed and name not in UNSIGNED:
            raise BundleError('%s: in the bundle but not in the manifest'
                              % name)
    for name, sha in sorted(listed.items()):
        if name not in files:
            raise BundleError('%s: in the manifest but not in the bundle'
                              % name)
        if _sha(files[name]) != sha:
            raise BundleError('%s: sha256 %s, the manifest says %s (the '
                              'file changed after signing)'
                              % (name, _sha(files[name]), sha))


def _json(files, name):
    try:
        return json.loads(files[name])
    except (KeyError, ValueError) as e:
        raise BundleError('%s: %s' % (name, e))


def _rederive(files, rep):
    """The report the bundle's streams, claims and catalogue give."""
    header = rep['header']
    claims = yaml.safe_load(files.get('claims.yaml') or b'') or {}
    if ws.redact_claims(header.get('claims') or {}) != claims:
        raise BundleError('claims.yaml: not the claims of report.json\'s '
                          'header')
    # The run's own tempest.conf says what it was told and whether it had
    # admin (dynamic credentials): the header may not say otherwise.
    with tempfile.TemporaryDirectory() as tmp:
        conf = os.path.join(tmp, 'tempest.conf')
        with open(conf, 'wb') as f:
            f.write(files.get('results/tempest.conf') or b'')
        try:
            told, parser = report_mod.claims_of_tempest_conf(conf)
        except report_mod.BadInput as e:
            raise BundleError('results/tempest.conf: %s' % e)
    if told != header.get('claims'):
        raise BundleError('report.json: its claims are not those of '
                          'results/tempest.conf')
    # None with pre-provisioned accounts: their file is not bundled.
    admin = report_mod.dynamic_admin(parser)
    if admin is not None and admin != bool(header.get('admin')):
        raise BundleError('report.json: admin %s, but results/tempest.conf '
                          'gives %s' % (header.get('admin'), admin))
    attempts = header.get('attempts') or [
        {'subunit': verdict_mod.attempt_subunit(1)}]
    want = [verdict_mod.attempt_subunit(n)
            for n in range(1, len(attempts) + 1)]
    if [a.get('subunit') for a in attempts] != want:
        raise BundleError('report.json: attempts %s, not 1 to %d in order '
                          '(%s)' % ([a.get('subunit') for a in attempts],
                                    len(attempts), ', '.join(want)))
    bundled = sorted(n for n in files if n.startswith('results/')
                     and n.endswith('.subunit'))
    if bundled != sorted('results/' + w for w in want):
        raise BundleError('the bundle\'s streams %s are not the attempts '
                          'of report.json' % ', '.join(bundled))
    streams = []
    for name in want:   # each bundled, as checked above
        streams.append(verdict_mod.records_from_subunit(
            io.BytesIO(files['results/' + name])))
    records, origin = verdict_mod.combine_attempts(streams)
    try:
        declared = [catalogue.DeclaredTest(
            t['idempotent_id'], t['name'], '', tuple(t['requirements']))
            for t in _json(files, DECLARED)]
    except (TypeError, KeyError) as e:
        raise BundleError('%s: not a list of declared tests (%s)'
                          % (DECLARED, e))
    with tempfile.TemporaryDirectory() as tmp:
        cat_path = os.path.join(tmp, 'requirements.yaml')
        with open(cat_path, 'wb') as f:
            f.write(files[CATALOGUE])
        try:
            problems = catalogue.check(catalogue.load(cat_path), declared)
        except catalogue.CatalogueError as e:
            raise BundleError('%s: %s' % (CATALOGUE, e))
        if problems:
            raise BundleError('%s: its tests and the catalogue disagree: %s'
                              % (DECLARED, '; '.join(problems[:3])))
        try:
            return report_mod.report(
                records, header.get('claims') or {}, header.get('admin'),
                mode=header.get('mode'), leaks=header.get('leaks') or [],
                cat_path=cat_path, declared=declared,
                versions={k: header.get(k) for k in (
                    'plugin_version', 'plugin_git_sha', 'tempest_version',
                    'suite_sha256')},
                origin=origin if len(attempts) > 1 else None), records
        except catalogue.CatalogueError as e:
            raise BundleError('%s: %s' % (CATALOGUE, e))


def _compare(rep, again, files, records):
    """Refuse a report.json (and its renderings) its streams do not give."""
    from pending_tempest_plugin.runner import artifacts

    again = json.loads(json.dumps(again))
    if rep['requirements'] != again['requirements']:
        mine = {r.get('id'): r for r in rep['requirements']}
        for row in again['requirements']:
            if mine.get(row['id']) != row:
                raise BundleError(
                    'report.json: requirement %s is not what the bundle\'s '
                    'streams give (%s)' % (row['id'], ', '.join(sorted(
                        k for k in set(row) | set(mine.get(row['id']) or {})
                        if row.get(k) != (mine.get(row['id']) or {}).get(
                            k)))))
        raise BundleError('report.json: its requirement rows are not the '
                          "catalogue's, in order")
    if rep['verdict'] != again['verdict']:
        raise BundleError(
            'report.json: its verdict (%r) is not the one the bundle\'s '
            'subunit streams, claims and catalogue give (%r)'
            % (rep['verdict'].get('lines', [''])[:2],
               again['verdict']['lines'][:2]))
    rendered = {
        'results/report.txt': report_mod.render(
            rep['requirements'], rep['totals'], rep['verdict']) + '\n',
        'results/results.xml': artifacts.junit(records),
        'results/results.html': artifacts.html_page(rep, records)}
    for name, text in sorted(rendered.items()):
        if files.get(name, b'').decode('utf-8', 'replace') != text:
            raise BundleError('%s: not the rendering of report.json and '
                              'the streams' % name)
    if rep['verdict'].get('lines') != again['verdict']['lines']:
        raise BundleError(
            'report.json: its verdict (%r) is not the one the bundle\'s '
            'subunit streams, claims and catalogue give (%r)'
            % (rep['verdict'].get('lines', [''])[:2],
               again['verdict']['lines'][:2]))
    rows = {r['id']: r['outcome'] for r in again['requirements']}
    for row in rep['requirements']:
        if rows.get(row['id']) != row.get('outcome'):
            raise BundleError(
                'report.json: requirement %s says %s, the bundle\'s streams '
                'give %s' % (row['id'], row.get('outcome'),
                             rows.get(row['id'])))
    if len(rows) != len(rep['requirements']):
        raise BundleError('report.json: %d requirement rows, the catalogue '
                          'has %d' % (len(rep['requirements']), len(rows)))
    for key in ('totals', 'scopes', 'exit_code'):
        if rep.get(key) != again.get(key):
            raise BundleError('report.json: %s differs from what the '
                              "bundle's streams give" % key)


def verify(path, allowed, suite_hashes, principal=None):
    """Lines saying what was verified; BundleError naming what is not."""
    files = _read_bundle(path)
    signer = _check_signature(files, allowed, principal)
    try:
        return _verify(path, files, signer, suite_hashes)
    except (KeyError, TypeError, ValueError, AttributeError,
            UnicodeDecodeError, yaml.YAMLError) as e:
        raise BundleError('a malformed bundle (report.json, manifest.json, '
                          'claims.yaml or product.yaml): %s: %s'
                          % (type(e).__name__, e))


def _release_line(release, name):
    for line in release.decode('utf-8', 'replace').splitlines():
        sha, _, path = line.partition('  ')
        if path == name:
            return sha
    return None


def _verify(path, files, signer, suite_hashes):
    from pending_tempest_plugin.runner import cli

    manifest = _json(files, 'manifest.json')
    if not isinstance(manifest, dict):
        raise BundleError('manifest.json: not a mapping')
    _check_hashes(files, manifest)
    if files.get('SHA256SUMS', b'').decode('utf-8', 'replace') != (
            _sha256sums(manifest['files'])):
        raise BundleError('SHA256SUMS: not the manifest\'s files')
    rep = _json(files, 'results/report.json')
    if not isinstance(rep, dict) or not isinstance(rep.get('header'), dict):
        raise BundleError('results/report.json: not a report')
    header = rep['header']
    if CATALOGUE not in files:
        raise BundleError('%s: missing' % CATALOGUE)
    if _sha(files[CATALOGUE]) != header.get('catalogue_sha256'):
        raise BundleError('%s: sha256 %s, report.json\'s header says %s'
                          % (CATALOGUE, _sha(files[CATALOGUE]),
                             header.get('catalogue_sha256')))
    version = header.get('plugin_version')
    if (header.get('development_build', True)
            or suite.is_development(version)
            or (manifest.get('suite') or {}).get('plugin_version')
            != version):
        raise BundleError('report.json: plugin_version %s is a development '
                          'build (or not the manifest\'s): not certifiable'
                          % version)
    if not cli._tempest_supported(header.get('tempest_version')):
        raise BundleError('report.json: tempest_version %s is outside the '
                          'supported range %s to below %s' % ((
                              header.get('tempest_version'),)
                              + cli.SUPPORTED_TEMPEST))
    try:
        with open(suite_hashes, 'rb') as f:
            release = f.read()
    except OSError as e:
        raise BundleError('--suite-hashes %s: %s' % (suite_hashes, e))
    release_sha = _sha(release)
    for where, sha in (
            ('manifest.json suite.sha256',
             (manifest.get('suite') or {}).get('sha256')),
            ("report.json's header suite_sha256", header.get('suite_sha256')),
            (SUITE_SUMS, _sha(files.get(SUITE_SUMS, b'')))):
        if sha != release_sha:
            raise BundleError(
                '%s: %s, not the release\'s suite (%s of %s): the suite '
                'that ran is not the release\'s' % (where, sha, release_sha,
                                                    suite_hashes))
    # The catalogue that decided the rows is the release's own file.
    listed = _release_line(release, suite.PACKAGE + '/conformance/'
                           'requirements.yaml')
    if listed != _sha(files[CATALOGUE]):
        raise BundleError('%s: sha256 %s, the release lists %s for its '
                          'catalogue' % (CATALOGUE, _sha(files[CATALOGUE]),
                                         listed))
    for name, data in sorted(files.items()):
        left = secrets_left(name, data)
        if left:
            raise BundleError('a secret survived redaction: %s'
                              % '; '.join(left[:3]))
    product = load_product('product.yaml',
                           (files.get('product.yaml') or b'').decode())
    if product != manifest.get('product'):
        raise BundleError('product.yaml: not the manifest\'s product')
    if header.get('region') and product['region'] != header['region']:
        raise BundleError('product.yaml: region %s, the run was in %s'
                          % (product['region'], header['region']))
    again, records = _rederive(files, rep)
    _compare(rep, again, files, records)
    # What the manifest says of the run is what report.json says.
    expected = {
        'suite.plugin_version': header.get('plugin_version'),
        'suite.plugin_git_sha': header.get('plugin_git_sha'),
        'tempest_version': header.get('tempest_version'),
        'catalogue.sha256': header.get('catalogue_sha256'),
        'catalogue.version': header.get('catalogue_version'),
        'cloud_id': header.get('cloud_id'), 'region': header.get('region'),
        'mode': header.get('mode'),
        'policy_profile': (header.get('claims') or {}).get(
            'host_status_policy_profile'),
        'scopes': [{'name': x['name'], 'status': x['status'],
                    'claims': x['claims']} for x in rep.get('scopes') or ()],
        'verdict': rep['verdict']['lines'][:2],
        'attempts': len(header.get('attempts') or ()) or 1}
    for key, value in expected.items():
        have = manifest
        for part in key.split('.'):
            have = (have or {}).get(part)
        if have != value:
            raise BundleError('manifest.json: %s is %r, report.json gives '
                              '%r' % (key, have, value))
    return ['pending-conformance verify: OK: %s' % path,
            '  signed by %s (namespace %s)' % (signer, NAMESPACE),
            '  %d files, each its manifest sha256' % len(
                manifest['files']),
            '  product: %s' % ', '.join('%s %s' % (k, product[k])
                                        for k in PRODUCT_KEYS),
            '  suite %s (plugin %s, tempest %s): the release\'s'
            % (release_sha[:16], version, header.get('tempest_version')),
            '  verdict derived again from %d subunit stream(s): %s'
            % (len(header.get('attempts') or ()) or 1,
               ' / '.join(rep['verdict']['lines'][:2])),
            '  certified scopes: %s' % (', '.join(
                x['name'] for x in rep.get('scopes') or ()
                if x['status'] == verdict_mod.CERTIFIED
                and not header.get('development_build')) or 'none'),
            '  stated by the run, not derivable from the bundle: its leaks '
            '(%d)%s' % (len(header.get('leaks') or ()), '' if header.get(
                'credentials') != 'pre-provisioned' else
                ', admin (pre-provisioned credentials)')]
