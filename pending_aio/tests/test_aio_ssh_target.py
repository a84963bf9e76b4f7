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
"""pending_aio ssh-converge without a cloud: its files and its verdict."""

import os
import subprocess
import time

import fixtures
from oslotest import base
import yaml

import pending_aio
from pending_aio.cloud import control as cloud
from pending_aio.cloud import ssh_target


class SshTargetTest(base.BaseTestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.EnvironmentVariable('AIO_DIR', '/srv/a b'))

    def test_sshd_listens_on_the_loopback_with_keys_only(self):
        conf = ssh_target.sshd_config('/d', 2222).splitlines()
        self.assertIn('ListenAddress 127.0.0.1', conf)
        self.assertIn('Port 2222', conf)
        self.assertIn('PasswordAuthentication no', conf)
        self.assertIn('PermitRootLogin prohibit-password', conf)
        self.assertIn('AuthorizedKeysFile /d/authorized_keys', conf)

    def test_inventory_reaches_the_group_over_ssh(self):
        inv = yaml.safe_load(ssh_target.inventory('/d', 2222))
        host = inv['all']['children']['aio_cloud']['hosts']['cloud-over-ssh']
        self.assertEqual('ssh', host['ansible_connection'])
        self.assertEqual(2222, host['ansible_port'])
        self.assertEqual('127.0.0.1', host['ansible_host'])
        self.assertEqual('/d/client_key',
                         host['ansible_ssh_private_key_file'])
        self.assertIn('StrictHostKeyChecking=yes',
                      host['ansible_ssh_common_args'])
        self.assertEqual('/srv/a b', host['aio_dir'])
        self.assertEqual(pending_aio.REPO, host['aio_repo_dir'])

    def test_recap(self):
        out = ('PLAY RECAP ****\ncloud-over-ssh : ok=82   changed=0    '
               'unreachable=0    failed=0    skipped=1\n')
        self.assertEqual((0, 0, 0), ssh_target.recap(out))
        self.assertEqual((2, 0, 0), ssh_target.recap(
            out.replace('changed=0', 'changed=2')))
        self.assertIsNone(ssh_target.recap('no recap'))
        self.assertIsNone(ssh_target.recap(out + out))

    def test_descendants_finds_a_grandchild(self):
        outer = subprocess.Popen(['sh', '-c', 'sleep 30 & wait'])
        self.addCleanup(outer.wait)
        self.addCleanup(outer.kill)
        for _ in range(250):
            grandchildren = cloud.descendants(outer.pid)
            if grandchildren:
                break
            time.sleep(0.02)
        self.assertEqual(1, len(grandchildren))
        self.addCleanup(os.kill, grandchildren[0], 9)
        below = cloud.descendants(os.getpid())
        self.assertIn(outer.pid, below)
        self.assertIn(grandchildren[0], below)
