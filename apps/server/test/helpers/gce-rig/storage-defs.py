"""Cloud Storage JSON API v1 as gcloud's generated client defines it (googlecloudsdk's
generated_clients/apis/storage/v1: storage_v1_client.py, storage_v1_messages.py), dumped as JSON
for the GCS rig (storage-defs.ts): each method's verb, path, query parameters and request type,
and each message's fields with their types. Run with the SDK's lib directory as argv[1]."""
import json
import sys

sdk = sys.argv[1] if len(sys.argv) > 1 else '/usr/lib/google-cloud-sdk/lib'
sys.path[:0] = [sdk, f'{sdk}/third_party']
from apitools.base.protorpclite import messages as pm  # noqa: E402
from googlecloudsdk.generated_clients.apis.storage.v1 import storage_v1_client as client_module  # noqa: E402
from googlecloudsdk.generated_clients.apis.storage.v1 import storage_v1_messages as m  # noqa: E402

types = {}


def dump(cls):
    key = cls.__qualname__
    if key in types:
        return key
    types[key] = None
    fields = {}
    for f in cls.all_fields():
        d = {'variant': f.variant.name, 'repeated': bool(f.repeated)}
        if isinstance(f, pm.MessageField):
            mt = f.message_type
            if mt.__name__ == 'DateTimeMessage':
                d['variant'] = 'DATETIME'
            elif mt.__module__.startswith('apitools'):
                d['variant'] = 'JSON'
            else:
                d['type'] = dump(mt)
        if isinstance(f, pm.EnumField):
            d['enum'] = [e.name for e in f.type]
        fields[f.name] = d
    value = None
    if list(fields) == ['additionalProperties']:
        entry = types.get(fields['additionalProperties']['type'])
        value = entry['fields']['value'] if entry else None
    types[key] = {'fields': fields, 'map': value}
    return key


client = client_module.StorageV1(url='http://rig/storage/v1/', get_credentials=False)
methods = {}
for service in ('buckets', 'objects'):
    svc = getattr(client, service)
    for method in svc.GetMethodsList():
        cfg = svc.GetMethodConfig(method)
        dump(getattr(m, cfg.request_type_name))
        dump(getattr(m, cfg.response_type_name))
        methods[f'{service}.{method}'] = {
            'httpMethod': cfg.http_method,
            'path': cfg.relative_path,
            'pathParams': cfg.path_params,
            'queryParams': cfg.query_params,
            'requestType': cfg.request_type_name,
            'requestField': cfg.request_field,
            'responseType': cfg.response_type_name,
        }
json.dump({'methods': methods, 'types': types}, sys.stdout, sort_keys=True)
