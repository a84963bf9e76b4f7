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
"""The embedded cloud's directories and configuration files (stdlib only).

What the ``files`` module does: create directories and write the files
whose content or mode differs, with Ansible's diffs, never one of a secret
file's content.
"""

import os
import pwd
import shutil


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
