"""AWS spot preload: nothing to watch on the local backend.

On an EC2 spot instance this preload would watch for the interruption notice and retire the
worker before the instance goes. Local instances are never interrupted, so this one only says so.
"""


async def dask_setup(dask_server):
    print("cumulus: aws-spot preload: local instance, no spot interruptions to watch", flush=True)
