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
"""Check zuul.d/ without a running Zuul (`tox -e zuul-config`).

``python -m pending_aio zuul-check [--cache DIR]``.

1. Zuul's own parser (``zuul.configloader``: the ``JobParser``,
   ``ProjectTemplateParser``, ``ProjectParser`` and ``NodeSetParser`` a
   tenant's layout is built with, their voluptuous schemas included) reads
   every stanza, with a parse context that has no connection and no tenant.
2. Every name a stanza uses resolves: parents, nodesets, project templates,
   the jobs a pipeline lists (never an abstract one), pipelines, playbooks
   and roles; job variables and devstack_localrc variables are set by
   Tempest's own zuul.d/ or read by its roles (from the Tempest sdist),
   listed in pending_aio/data/zuul-external.yaml with their upstream
   source, or read by this repository's playbooks / devstack plugin.

Part 2 needs no Zuul (``check``: the unit tests run it in `tox -e py3`).
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tarfile

import yaml

import pending_aio

REPO = pending_aio.REPO
PLAYBOOK_ATTRS = ('pre-run', 'run', 'post-run', 'cleanup-run')
VAR_ATTRS = ('vars', 'extra-vars')
GROUP_VAR_ATTRS = ('group-vars', 'host-vars')
# Keys of a project stanza that are not pipelines.
PROJECT_KEYS = {'name', 'description', 'templates', 'vars', 'queue',
                'merge-mode', 'default-branch', 'branches'}


class Stanza(object):
    def __init__(self, kind, conf, source):
        self.kind, self.conf, self.source = kind, conf, source
        self.name = conf.get('name') if isinstance(conf, dict) else None

    def where(self):
        return '%s: %s %s' % (self.source, self.kind, self.name or '')


def load_dir(path):
    """Every stanza of a zuul.d/ directory (plain YAML), in file order."""
    stanzas = []
    for fn in sorted(glob.glob(os.path.join(path, '*.yaml'))):
        with open(fn) as f:
            data = yaml.safe_load(f) or []
        for item in data:
            (kind, conf), = item.items()
            stanzas.append(Stanza(kind, conf or {}, os.path.relpath(fn)))
    return stanzas


class Upstream(object):
    """The names the world outside zuul.d/ defines."""

    def __init__(self, jobs=(), nodesets=(), templates=(), pipelines=(),
                 roles=(), variables=(), localrc=(), plugin_variables=(),
                 abstract_jobs=()):
        self.jobs = set(jobs)
        self.abstract_jobs = set(abstract_jobs)
        self.nodesets = set(nodesets)
        self.templates = set(templates)
        self.pipelines = set(pipelines)
        self.roles = set(roles)
        self.variables = set(variables)
        self.localrc = set(localrc)
        self.plugin_variables = set(plugin_variables)

    def add_external(self, ext):
        """Add zuul-external.yaml (name: {repo, path, commit})."""
        self.jobs |= set(ext.get('jobs') or {})
        self.nodesets |= set(ext.get('nodesets') or {})
        self.templates |= set(ext.get('project-templates') or {})
        self.pipelines |= set(ext.get('pipelines') or {})
        self.roles |= set(ext.get('roles') or {})
        self.variables |= set(ext.get('variables') or {})
        self.localrc |= set(ext.get('devstack-variables') or {})
        self.plugin_variables |= set(ext.get('plugin-variables') or ())

    def add_tempest(self, files):
        """Add Tempest's sdist: {path inside it: text}."""
        rolevar = re.compile(r'zuul:rolevar::\s+([A-Za-z_][A-Za-z0-9_]*)')
        for path, text in files.items():
            parts = path.split('/')
            if 'zuul.d' in parts and path.endswith('.yaml'):
                for item in yaml.safe_load(text) or []:
                    (kind, conf), = item.items()
                    name = conf.get('name')
                    if kind == 'job':
                        self.jobs.add(name)
                        if conf.get('abstract'):
                            self.abstract_jobs.add(name)
                        for attr in VAR_ATTRS:
                            self._add_vars(conf.get(attr) or {})
                        for attr in GROUP_VAR_ATTRS:
                            for group in (conf.get(attr) or {}).values():
                                self._add_vars(group or {})
                    elif kind == 'nodeset':
                        self.nodesets.add(name)
                    elif kind == 'project-template':
                        self.templates.add(name)
            elif 'roles' in parts and parts[-1] == 'README.rst':
                self.variables |= set(rolevar.findall(text))
            elif ('roles' in parts and 'defaults' in parts
                  and path.endswith(('.yaml', '.yml'))):
                self.variables |= set(yaml.safe_load(text) or {})

    def _add_vars(self, variables):
        self.variables |= set(variables)
        self.localrc |= set(variables.get('devstack_localrc') or {})


def _as_list(value):
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _playbook_paths(conf):
    for attr in PLAYBOOK_ATTRS:
        for pb in _as_list(conf.get(attr)):
            yield attr, pb['name'] if isinstance(pb, dict) else pb


def _job_variable_sets(conf):
    """(where, variables dict) of a job: vars, extra-vars, group/host-vars."""
    for attr in VAR_ATTRS:
        if conf.get(attr):
            yield attr, conf[attr]
    for attr in GROUP_VAR_ATTRS:
        for group, variables in (conf.get(attr) or {}).items():
            yield '%s %s' % (attr, group), variables or {}


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ''


def check(stanzas, upstream, repo=REPO):
    """The errors of zuul.d/'s stanzas (a list of strings) and notes."""
    errors, notes = [], []
    jobs = {}
    templates = set(upstream.templates)
    nodesets = set(upstream.nodesets)
    for s in stanzas:
        if s.kind == 'job':
            if s.name in jobs:
                errors.append('%s: defined twice' % s.where())
            jobs[s.name] = s
        elif s.kind == 'project-template':
            templates.add(s.name)
        elif s.kind == 'nodeset':
            nodesets.add(s.name)
    known_jobs = set(jobs) | upstream.jobs

    playbook_text = ''.join(
        _read(p) for p in sorted(glob.glob(
            os.path.join(repo, 'playbooks', 'zuul', '*.yaml'))))
    plugin_text = ''.join(_read(os.path.join(repo, 'devstack', f))
                          for f in ('settings', 'plugin.sh'))
    aio_vars = _read(os.path.join(repo, 'playbooks', 'group_vars',
                                  'all.yaml'))

    for name, s in jobs.items():
        conf = s.conf
        parent = conf.get('parent')
        if parent and parent not in known_jobs:
            errors.append('%s: parent %s is defined nowhere (zuul.d/, '
                          "Tempest's zuul.d/, "
                          'pending_aio/data/zuul-external.yaml)'
                          % (s.where(), parent))
        nodeset = conf.get('nodeset')
        if isinstance(nodeset, str) and nodeset not in nodesets:
            errors.append('%s: nodeset %s is defined nowhere'
                          % (s.where(), nodeset))
        for attr, path in _playbook_paths(conf):
            if not os.path.isfile(os.path.join(repo, path)):
                errors.append('%s: %s playbook %s does not exist'
                              % (s.where(), attr, path))
        for role in _as_list(conf.get('roles')):
            if isinstance(role, dict) and 'zuul' in role:
                errors.append('%s: role repository %s: our playbooks use '
                              'no role of another repository, so that they '
                              'run with plain ansible-playbook'
                              % (s.where(), role['zuul']))
        for where, variables in _job_variable_sets(conf):
            for var in variables:
                if var in upstream.variables:
                    continue
                if re.search(r'\b%s\b' % re.escape(var), playbook_text):
                    continue
                errors.append(
                    '%s: %s variable %s is read by no playbook of ours, set '
                    "by no job of Tempest's zuul.d/ or read by its roles, "
                    'and not in pending_aio/data/zuul-external.yaml'
                    % (s.where(), where, var))
            for var in variables.get('devstack_localrc') or {}:
                if var in upstream.localrc:
                    continue
                if var in upstream.plugin_variables:
                    if not re.search(r'\b%s\b' % var, plugin_text):
                        notes.append('devstack plugin variable %s is not '
                                     'in devstack/settings or plugin.sh '
                                     'yet' % var)
                    continue
                errors.append(
                    '%s: %s devstack_localrc %s is devstack\'s nowhere we '
                    'know (Tempest\'s zuul.d/, '
                    'pending_aio/data/zuul-external.yaml '
                    'devstack-variables or plugin-variables)'
                    % (s.where(), where, var))
            extra = variables.get('pending_aio_extra_vars') or ''
            for kv in extra.split():
                var = kv.split('=', 1)[0]
                if not re.search(r'^%s:' % re.escape(var), aio_vars, re.M):
                    errors.append('%s: AIO_EXTRA_VARS sets %s, which '
                                  'playbooks/group_vars/all.yaml does not '
                                  'define' % (s.where(), var))

    for s in stanzas:
        if s.kind not in ('project', 'project-template'):
            continue
        for tmpl in s.conf.get('templates') or []:
            if tmpl not in templates:
                errors.append('%s: project template %s is defined nowhere'
                              % (s.where(), tmpl))
        for pipeline, content in s.conf.items():
            if pipeline in PROJECT_KEYS or pipeline.startswith('_'):
                continue
            if upstream.pipelines and pipeline not in upstream.pipelines:
                errors.append('%s: pipeline %s is defined nowhere'
                              % (s.where(), pipeline))
            for entry in (content or {}).get('jobs') or []:
                job = entry if isinstance(entry, str) else next(iter(entry))
                if job not in known_jobs:
                    errors.append('%s: %s lists job %s, defined nowhere'
                                  % (s.where(), pipeline, job))
                elif (job in upstream.abstract_jobs
                      or jobs.get(job) and jobs[job].conf.get('abstract')):
                    errors.append('%s: %s lists abstract job %s'
                                  % (s.where(), pipeline, job))
    return errors, sorted(set(notes))


def zuul_parse(path, project='x/pending-tempest-plugin'):
    """Parse zuul.d/ with Zuul's own configloader; return the errors."""
    import types

    from zuul import configloader
    from zuul import model

    class AnsibleManager(object):
        def requestVersion(self, version):
            pass

    connections = types.SimpleNamespace(connections={}, drivers={})
    pcontext = configloader.ParseContext(connections, None, None,
                                         AnsibleManager())
    parsers = {
        'job': pcontext.job_parser.fromYaml,
        'project-template': pcontext.project_template_parser.fromYaml,
        'project': pcontext.project_parser.fromYaml,
        'nodeset': pcontext.nodeset_parser.fromYaml,
    }
    errors = []
    for fn in sorted(glob.glob(os.path.join(path, '*.yaml'))):
        rel = os.path.relpath(fn, os.path.dirname(path))
        source = model.SourceContext('opendev.org/' + project, project,
                                     'opendev.org', 'master', rel)
        try:
            with open(fn) as f:
                data = configloader.safe_load_yaml(f.read(), source)
        except Exception as e:
            errors.append('%s: %s' % (rel, e))
            continue
        for item in data or []:
            (kind, conf), = item.items()
            name = conf.get('name', '') if isinstance(conf, dict) else ''
            parser = parsers.get(kind)
            if parser is None:
                errors.append('%s: %s %s: not a stanza this check knows'
                              % (rel, kind, name))
                continue
            try:
                parser(conf)
            except Exception as e:
                errors.append('%s: %s %s: %s' % (
                    rel, kind, name, str(e).strip().replace('\n', ' ')))
    errors.extend('%s' % e for e in pcontext.error_list)
    return errors


def tempest_version(repo=REPO):
    path = os.path.join(repo, 'playbooks', 'roles', 'aio_python', 'files',
                        'constraints', 'tools.txt')
    m = re.search(r'^tempest==(\S+)', _read(path), re.M)
    if not m:
        raise SystemExit('no tempest== pin in %s' % path)
    return m.group(1)


def tempest_sdist(version, cache):
    """The Tempest sdist (a real one, from PyPI), downloaded once."""
    os.makedirs(cache, exist_ok=True)
    found = glob.glob(os.path.join(cache, 'tempest-%s.tar.gz' % version))
    if not found:
        subprocess.check_call(
            [sys.executable, '-m', 'pip', 'download', '-q', '--no-deps',
             '--no-binary', ':all:', '--dest', cache,
             'tempest==%s' % version])
        found = glob.glob(os.path.join(cache, 'tempest-%s.tar.gz' % version))
    return found[0]


def tempest_files(sdist):
    """{path below the sdist's top directory: text} of zuul.d and roles."""
    files = {}
    with tarfile.open(sdist) as tar:
        for member in tar.getmembers():
            path = member.name.split('/', 1)[-1]
            if not member.isfile():
                continue
            if path.startswith('zuul.d/') or path.startswith('roles/'):
                files[path] = tar.extractfile(member).read().decode()
    if not any(p.startswith('zuul.d/') for p in files):
        raise SystemExit('%s has no zuul.d/' % sdist)
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--zuul-d', default=os.path.join(REPO, 'zuul.d'))
    parser.add_argument('--repo', default=REPO)
    parser.add_argument('--external',
                        default=os.path.join(REPO, 'pending_aio', 'data',
                                             'zuul-external.yaml'))
    parser.add_argument('--cache', default=os.path.join(REPO, '.tox',
                                                        'sdists'))
    parser.add_argument('--tempest-sdist',
                        help='default: download the pinned version')
    parser.add_argument('--no-zuul', action='store_true',
                        help="skip Zuul's parser (names only)")
    args = parser.parse_args(argv)

    errors = []
    if not args.no_zuul:
        errors += zuul_parse(args.zuul_d)
    upstream = Upstream()
    with open(args.external) as f:
        upstream.add_external(yaml.safe_load(f))
    sdist = args.tempest_sdist or tempest_sdist(
        tempest_version(args.repo), args.cache)
    upstream.add_tempest(tempest_files(sdist))
    stanzas = load_dir(args.zuul_d)
    found, notes = check(stanzas, upstream, args.repo)
    errors += found
    for note in notes:
        print('note: ' + note)
    for error in errors:
        print('error: ' + error)
    print('zuul-config: %d stanzas in %s, Tempest from %s: %d errors'
          % (len(stanzas), os.path.relpath(args.zuul_d),
             os.path.basename(sdist), len(errors)))
    return 1 if errors else 0
