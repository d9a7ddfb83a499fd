# From Coiled's API reference (https://docs.coiled.io/user_guide/api.html): listing instance and GPU
# types, the user, core usage, versions and diagnostics. No cluster is started.
import cumulus as coiled

types = coiled.list_instance_types(min_cores=2, min_memory="8 GiB")
assert types and all(t["cores"] >= 2 for t in types.values()), types
gpus = coiled.list_gpu_types()
assert isinstance(gpus, dict)
assert coiled.list_user_information()["username"]
assert "cores_used" in coiled.list_core_usage()
versions = coiled.list_local_versions()
assert versions["python"], versions
report = coiled.diagnostics()
assert report, report
assert isinstance(coiled.list_software_environments(), dict)
print("ok")
