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
"""The embedded cloud's volume backend: one sparse file per volume.

This is the one fake in the storage path (doc/source/embedded-cloud.rst
says why).  Everything above it is real Cinder 29.0.0: the API, the
scheduler, the volume manager's state machine, attachments, image
download and upload, snapshots, clones and backups.  Below it there is no
block device: a volume is a sparse file, and a connection is os-brick's
``local`` protocol pointing at that file.  That needs no kernel feature
(no LVM, no iSCSI target, no loop device) and lets Cinder copy an image
into a volume with its own ``qemu-img`` path, which boot-from-volume
(``source_type=image``) depends on.  Nova's fake virt driver records the
connection info it is given and never opens the device.
"""

import os

from oslo_concurrency import processutils
from oslo_config import cfg
from oslo_log import log as logging
from oslo_utils import units

from cinder import exception
from cinder.image import image_utils
from cinder import interface
from cinder.volume import driver
from cinder.volume import volume_utils

LOG = logging.getLogger(__name__)

file_volume_opts = [
    cfg.StrOpt('file_volumes_dir',
               help='Directory holding one sparse file per volume and per '
                    'snapshot.'),
]

cfg.CONF.register_opts(file_volume_opts, group='backend_defaults')


@interface.volumedriver
class FileVolumeDriver(driver.VolumeDriver):
    """Volumes as sparse files, attached through os-brick ``local``."""

    VERSION = '1.0.0'
    # Not a vendor driver: no third-party CI.
    SUPPORTED = True
    CI_WIKI_NAME = 'pending-tempest-plugin embedded cloud'

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.configuration.append_config_values(file_volume_opts)
        self._dir = self.configuration.file_volumes_dir
        self.backend_name = (
            self.configuration.safe_get('volume_backend_name') or 'file')

    # ----------------------------------------------------------- setup ----

    def do_setup(self, context):
        if self._dir:
            os.makedirs(self._dir, exist_ok=True)

    def check_for_setup_error(self):
        if not self._dir:
            raise exception.VolumeBackendAPIException(
                data='file_volumes_dir is not set for backend %s'
                     % self.backend_name)
        if not os.access(self._dir, os.W_OK):
            raise exception.VolumeBackendAPIException(
                data='file_volumes_dir %s is not writable' % self._dir)

    def _update_volume_stats(self):
        st = os.statvfs(self._dir)
        self._stats = {
            'volume_backend_name': self.backend_name,
            'vendor_name': 'Open Source',
            'driver_version': self.VERSION,
            'storage_protocol': 'local',
            # The files are sparse: the filesystem's real size and free
            # space, thinly provisioned.
            'total_capacity_gb': round(st.f_blocks * st.f_frsize / units.Gi,
                                       2),
            'free_capacity_gb': round(st.f_bavail * st.f_frsize / units.Gi,
                                      2),
            'reserved_percentage': 0,
            'thin_provisioning_support': True,
            'thick_provisioning_support': False,
            'max_over_subscription_ratio':
                self.configuration.max_over_subscription_ratio,
            'multiattach': False,
        }

    # ----------------------------------------------------------- files ----

    def local_path(self, volume):
        return os.path.join(self._dir, volume.name)

    def _snapshot_path(self, snapshot):
        return os.path.join(self._dir, snapshot.name)

    @staticmethod
    def _resize(path, size_gb):
        with open(path, 'ab'):
            pass
        os.truncate(path, int(size_gb) * units.Gi)

    @staticmethod
    def _copy(src, dest):
        # Keep the holes: a 1 GiB volume that holds 1 MiB copies 1 MiB.
        processutils.execute('cp', '--sparse=always', src, dest)

    def _copy_to_volume(self, src, volume):
        """The volume's file becomes a copy of ``src``, at its own size."""
        self._copy(src, self.local_path(volume))
        self._resize(self.local_path(volume), volume.size)

    @staticmethod
    def _remove(path):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass

    # --------------------------------------------------------- volumes ----

    def create_volume(self, volume):
        self._resize(self.local_path(volume), volume.size)

    def delete_volume(self, volume):
        self._remove(self.local_path(volume))

    def extend_volume(self, volume, new_size):
        self._resize(self.local_path(volume), new_size)

    def create_cloned_volume(self, volume, src_vref):
        self._copy_to_volume(self.local_path(src_vref), volume)

    def create_snapshot(self, snapshot):
        self._copy(self.local_path(snapshot.volume),
                   self._snapshot_path(snapshot))

    def delete_snapshot(self, snapshot):
        self._remove(self._snapshot_path(snapshot))

    def create_volume_from_snapshot(self, volume, snapshot):
        self._copy_to_volume(self._snapshot_path(snapshot), volume)

    def revert_to_snapshot(self, context, volume, snapshot):
        self._copy_to_volume(self._snapshot_path(snapshot), volume)

    def copy_image_to_volume(self, context, volume, image_service, image_id,
                             disable_sparse=False):
        # Cinder's own image path: download, inspect, qemu-img convert.
        image_utils.fetch_to_raw(
            context, image_service, image_id, self.local_path(volume),
            self.configuration.volume_dd_blocksize, size=volume.size,
            disable_sparse=disable_sparse)
        # qemu-img writes a file of the image's size: give the volume its
        # own size back.
        self._resize(self.local_path(volume), volume.size)

    def copy_volume_to_image(self, context, volume, image_service,
                             image_meta):
        volume_utils.upload_volume(context, image_service, image_meta,
                                   self.local_path(volume), volume)

    # ----------------------------------------------------- connections ----

    def ensure_export(self, context, volume):
        pass

    def create_export(self, context, volume, connector):
        pass

    def remove_export(self, context, volume):
        pass

    def validate_connector(self, connector):
        # Any host on this machine can open the file: no initiator needed.
        pass

    def initialize_connection(self, volume, connector):
        return {
            'driver_volume_type': 'local',
            'data': {'device_path': self.local_path(volume)},
        }

    def terminate_connection(self, volume, connector, **kwargs):
        pass
