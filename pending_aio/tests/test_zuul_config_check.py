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
"""pending_aio/zuul/check.py on the real zuul.d/ and on broken copies.

Standard library only: `tox -e py3` runs the name checks (Zuul is not
installed there, the Zuul parser tests skip), `tox -e zuul-config` runs the
whole module with zuul 14.3.0.
"""

import os
import re
import shutil
import tempfile
import unittest

import yaml

from pending_aio import data_file
from pending_aio.zuul import check as zcc

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

try:
    import zuul.configloader  # noqa: F401
    HAVE_ZUUL = True
except ImportError:
    HAVE_ZUUL = False

# What Tempest's sdist gives the check, cut down to what zuul.d/ uses.
TEMPEST = {
    'zuul.d/base.yaml': yaml.safe_dump([
        {'job': {'name': 'devstack-tempest', 'parent': 'devstack', 'vars': {
            'devstack_localrc': {'IMAGE_URLS': 'x'},
            'devstack_local_conf': {}, 'zuul_copy_output': {},
            'tempest_plugins': [], 'devstack_plugins': {},
            'tox_envlist': 'all'}}},
    ]),
    'roles/run-tempest/README.rst':
        '.. zuul:rolevar:: tempest_concurrency\n'
        '.. zuul:rolevar:: tempest_test_regex\n',
}


class ZuulCopy(unittest.TestCase):
    """A copy of the repository's zuul.d/ and playbooks/ to break."""

    def setUp(self):
        self.repo = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.repo)
        for sub in ('zuul.d', 'playbooks/zuul', 'devstack'):
            shutil.copytree(os.path.join(REPO, sub),
                            os.path.join(self.repo, sub))
        os.makedirs(os.path.join(self.repo, 'playbooks', 'group_vars'))
        shutil.copy(os.path.join(REPO, 'playbooks', 'group_vars',
                                 'all.yaml'),
                    os.path.join(self.repo, 'playbooks', 'group_vars'))
        self.upstream = zcc.Upstream()
        with open(data_file('zuul-external.yaml')) as f:
            self.upstream.add_external(yaml.safe_load(f))
        self.upstream.add_tempest(TEMPEST)

    def edit(self, name, old, new):
        path = os.path.join(self.repo, 'zuul.d', name)
        with open(path) as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, 'w') as f:
            f.write(text.replace(old, new, 1))

    def errors(self):
        stanzas = zcc.load_dir(os.path.join(self.repo, 'zuul.d'))
        return zcc.check(stanzas, self.upstream, self.repo)[0]

    def assertRejected(self, *fragments):
        errors = self.errors()
        for fragment in fragments:
            self.assertTrue(any(fragment in e for e in errors),
                            '%r not in %s' % (fragment, errors))


class TestNames(ZuulCopy):

    def test_repository_zuul_d_passes(self):
        self.assertEqual([], self.errors())

    def test_unknown_parent(self):
        self.edit('devstack-jobs.yaml', 'parent: devstack-tempest\n',
                  'parent: devstack-tempst\n')
        self.assertRejected('parent devstack-tempst is defined nowhere')

    def test_missing_playbook(self):
        os.remove(os.path.join(self.repo, 'playbooks', 'zuul',
                               'disruptive-pre.yaml'))
        self.assertRejected(
            'pre-run playbook playbooks/zuul/disruptive-pre.yaml does not '
            'exist')

    def test_misspelled_variable(self):
        self.edit('devstack-jobs.yaml', 'tempest_concurrency: 2',
                  'tempest_concurency: 2')
        self.assertRejected('variable tempest_concurency is read by no '
                            'playbook')

    def test_unknown_devstack_variable(self):
        self.edit('devstack-jobs.yaml', 'NOVA_NUM_CELLS: 2',
                  'NOVA_NUM_CELL: 2')
        self.assertRejected('devstack_localrc NOVA_NUM_CELL is')

    def test_unknown_aio_variable(self):
        self.edit('aio-jobs.yaml', 'aio_nova_source=pypi',
                  'aio_nova_sources=pypi')
        self.assertRejected('AIO_EXTRA_VARS sets aio_nova_sources')

    def test_unknown_nodeset_template_and_job(self):
        self.edit('devstack-jobs.yaml', 'openstack-two-node-noble',
                  'openstack-two-nodes-noble')
        self.edit('project.yaml', '- publish-to-pypi', '- publish-to-pipy')
        self.edit('project.yaml', '- pending-tempest-plugin-aio-stock\n',
                  '- pending-tempest-plugin-aio-stok\n')
        self.assertRejected('nodeset openstack-two-nodes-noble',
                            'project template publish-to-pipy',
                            'lists job pending-tempest-plugin-aio-stok')

    def test_abstract_job_in_a_pipeline(self):
        self.edit('project.yaml', '- pending-tempest-plugin-stock\n',
                  '- pending-tempest-plugin-base\n')
        self.assertRejected('lists abstract job pending-tempest-plugin-base')


@unittest.skipUnless(HAVE_ZUUL, 'zuul is not installed (tox -e zuul-config)')
class TestZuulParser(ZuulCopy):

    def parse(self):
        return zcc.zuul_parse(os.path.join(self.repo, 'zuul.d'))

    def test_repository_zuul_d_parses(self):
        self.assertEqual([], self.parse())

    def test_misspelled_attribute(self):
        self.edit('devstack-jobs.yaml', 'pre-run: playbooks/zuul/',
                  'pre_run: playbooks/zuul/')
        errors = self.parse()
        self.assertEqual(1, len(errors), errors)
        self.assertIn('pending-tempest-plugin-multinode', errors[0])
        self.assertIn('pre_run', errors[0])

    def test_broken_copy(self):
        """Unknown parent, missing playbook, misspelled attribute at once."""
        self.edit('devstack-jobs.yaml', 'parent: devstack-tempest\n',
                  'parent: devstack-tempst\n')
        self.edit('devstack-jobs.yaml', 'timeout: 7200', 'timout: 7200')
        os.remove(os.path.join(self.repo, 'playbooks', 'zuul',
                               'aio-run.yaml'))
        errors = self.parse() + self.errors()
        for fragment in ('timout', 'parent devstack-tempst',
                         'playbooks/zuul/aio-run.yaml does not exist'):
            self.assertTrue(any(fragment in e for e in errors),
                            '%r not in %s' % (fragment, errors))


class TestMultiCellJob(unittest.TestCase):
    """The gate's multi-cell job runs the cross-cell tests, with claims."""

    JOB = 'pending-tempest-plugin-multi-cell'

    def job(self):
        with open(os.path.join(REPO, 'zuul.d', 'devstack-jobs.yaml')) as f:
            jobs = [item['job'] for item in yaml.safe_load(f)
                    if 'job' in item]
        return next(j for j in jobs if j['name'] == self.JOB)

    def test_its_selection_picks_the_cross_cell_classes(self):
        from pending_tempest_plugin.conformance import catalogue
        regex = re.compile(self.job()['vars']['tempest_test_regex'])
        tests, _ = catalogue.scan_tests()
        selected = set(t.name for t in tests if regex.search(t.name))
        cells = 'test_cell0_rebuild_cells.Cell0RebuildCellsTest.'
        across = 'HostStatusListingTest.test_detail_listing_of_several_servers'
        cross = set(t.name for t in tests
                    if cells in t.name or t.name.endswith(across))
        self.assertEqual(3, len(cross), cross)
        self.assertEqual(set(), cross - selected)
        # Still the PENDING and cell0 rebuild tests, not the disruptive
        # host_status classes (no stop command on this job).
        self.assertTrue(any('.test_pending_state.' in n for n in selected))
        self.assertFalse(any('Disruptive' in n or 'StoppedCompute' in n
                             for n in selected), sorted(selected))

    def test_it_claims_a_host_of_each_cell_as_capacity(self):
        localrc = self.job()['vars']['devstack_localrc']
        self.assertEqual('2', str(localrc['NOVA_NUM_CELLS']))
        pairs = dict(p.split(':') for p in
                     localrc['PENDING_CONFORMANCE_COMPUTE_HOST_CELLS']
                     .split(','))
        self.assertEqual(['cell1', 'cell2'], sorted(pairs.values()))
        capacity = localrc['PENDING_CONFORMANCE_CAPACITY_HOSTS'].split(',')
        self.assertEqual(sorted(pairs), sorted(capacity))


if __name__ == '__main__':
    unittest.main()
