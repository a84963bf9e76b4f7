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
"""Acceptance check of the reference nova on the embedded cloud.

Run with the tools venv's python and OS_CLIENT_CONFIG_FILE=.aio/clouds.yaml:

  --pending on  (default): a server whose flavor needs a trait no host has
      reads PENDING/pending at 2.105 and ERROR/error at 2.104; rebuild at
      2.105 answers 409; once one host gets the trait, rebuild at 2.106 takes
      it to ACTIVE with the same ID, its tags and its keypair.
  --pending off: the same server reads ERROR/error at 2.105 and 2.104.

Everything it creates (trait, flavor, keypair, server, the host's trait) is
removed or restored at the end, even on failure.
"""

import argparse
import sys
import time
import uuid

import aio_client


def check(ok, message):
    print('%s: %s' % ('ok' if ok else 'FAIL', message), flush=True)
    if not ok:
        sys.exit(1)


def server(conn, sid, mv):
    resp = conn.compute.get('/servers/%s' % sid, microversion=mv)
    return resp.json()['server']


def wait_status(conn, sid, mv, want, timeout=240):
    deadline = time.time() + timeout
    while True:
        body = server(conn, sid, mv)
        if body['status'] in want:
            return body
        if time.time() > deadline:
            check(False, 'server %s still %s after %ds (wanted %s)'
                  % (sid, body['status'], timeout, want))
        time.sleep(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--pending', choices=['on', 'off'], default='on')
    args = parser.parse_args()
    admin = aio_client.connect('aio-admin')
    member = aio_client.connect('aio-member')
    trait = 'CUSTOM_AIO_CHECK_%s' % uuid.uuid4().hex[:8].upper()
    undo = []
    try:
        admin.placement.put('/traits/%s' % trait, microversion='1.6')
        undo.append(lambda: admin.placement.delete(
            '/traits/%s' % trait, microversion='1.6'))
        flavor = admin.compute.create_flavor(
            name='aio-check-%s' % trait[-8:], ram=64, vcpus=1, disk=1)
        undo.append(lambda: admin.compute.delete_flavor(flavor))
        admin.compute.create_flavor_extra_specs(
            flavor, {'trait:%s' % trait: 'required'})
        key = member.compute.create_keypair(name='aio-check-%s' % trait[-8:])
        undo.append(lambda: member.compute.delete_keypair(key))
        net = member.network.find_network('aio-member-net')
        image = member.image.find_image('aio-tiny')
        body = {'server': {
            'name': 'aio-check', 'flavorRef': flavor.id,
            'imageRef': image.id, 'networks': [{'uuid': net.id}],
            'key_name': key.name, 'tags': ['aio-check', 'kept']}}
        sid = member.compute.post('/servers', json=body,
                                  microversion='2.105').json()['server']['id']
        undo.append(lambda: member.compute.delete_server(sid))

        if args.pending == 'off':
            wait_status(member, sid, '2.105', {'ERROR', 'PENDING'})
            for mv in ('2.105', '2.104'):
                s = server(member, sid, mv)
                check((s['status'], s.get('OS-EXT-STS:vm_state'))
                      == ('ERROR', 'error'),
                      'use_pending_state off: ERROR/error at %s (got %s/%s)'
                      % (mv, s['status'], s.get('OS-EXT-STS:vm_state')))
            return
        s = wait_status(member, sid, '2.105', {'PENDING', 'ERROR'})
        check((s['status'], s.get('OS-EXT-STS:vm_state'))
              == ('PENDING', 'pending'),
              'PENDING/pending at 2.105 (got %s/%s)'
              % (s['status'], s.get('OS-EXT-STS:vm_state')))
        s = server(member, sid, '2.104')
        check((s['status'], s.get('OS-EXT-STS:vm_state'))
              == ('ERROR', 'error'),
              'ERROR/error at 2.104 (got %s/%s)'
              % (s['status'], s.get('OS-EXT-STS:vm_state')))
        rebuild = {'rebuild': {'imageRef': image.id}}
        r = member.compute.post('/servers/%s/action' % sid, json=rebuild,
                                microversion='2.105')
        check(r.status_code == 409, 'rebuild at 2.105 answers 409 (got %s)'
              % r.status_code)

        rp = [p for p in admin.placement.get(
            '/resource_providers', microversion='1.6').json()[
                'resource_providers'] if p['name'] == 'cn1'][0]
        cur = admin.placement.get('/resource_providers/%s/traits' % rp[
            'uuid'], microversion='1.6').json()
        before = list(cur['traits'])

        def set_traits(traits):
            now = admin.placement.get(
                '/resource_providers/%s/traits' % rp['uuid'],
                microversion='1.6').json()
            admin.placement.put(
                '/resource_providers/%s/traits' % rp['uuid'],
                json={'traits': traits,
                      'resource_provider_generation':
                          now['resource_provider_generation']},
                microversion='1.6')
        set_traits(before + [trait])
        undo.insert(1, lambda: set_traits(before))

        r = member.compute.post('/servers/%s/action' % sid, json=rebuild,
                                microversion='2.106')
        check(r.status_code == 202, 'rebuild at 2.106 accepted (got %s %s)'
              % (r.status_code, r.text[:200]))
        s = wait_status(member, sid, '2.106', {'ACTIVE', 'ERROR', 'PENDING'})
        check(s['status'] == 'ACTIVE', 'ACTIVE after the cell0 rebuild (%s)'
              % s['status'])
        check(s['id'] == sid, 'same server ID %s' % sid)
        check(sorted(s.get('tags', [])) == ['aio-check', 'kept'],
              'tags kept (%s)' % s.get('tags'))
        check(s.get('key_name') == key.name, 'keypair kept (%s)'
              % s.get('key_name'))
        host = server(admin, sid, '2.106').get('OS-EXT-SRV-ATTR:host')
        check(host == 'cn1', 'landed on the host with the trait (%s)' % host)
    finally:
        for step in reversed(undo):
            try:
                step()
            except Exception as e:  # keep undoing the rest
                print('cleanup: %s' % e)
        deadline = time.time() + 60
        while time.time() < deadline and any(
                s.name == 'aio-check' for s in member.compute.servers()):
            time.sleep(1)


if __name__ == '__main__':
    main()
