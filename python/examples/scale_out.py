# A 8192 x 8192 heightmap computed by a local Dask cluster and written to Zarr, block by block.
import distributed
import zarr

import cnoise
import cnoise.dask

if __name__ == "__main__":  # the workers are processes that import this file: start the cluster once
    world = cnoise.Noise("perlin", dims=2, seed=2026, fractal="fbm", octaves=6, amplitude=0.5, bias=0.5)
    with cnoise.dask.local_cluster(n_workers=2) as cluster, distributed.Client(cluster):
        heights = world.dask_grid((8192, 8192), chunks=2048, origin=(-4096, -4096))  # lazy: 16 blocks
        heights.to_zarr("world.zarr", overwrite=True)  # each worker computes and writes its blocks
        print("highest:", float(heights.max().compute()))  # any dask.array computation
    z = zarr.open("world.zarr", mode="r")  # chunks of 2048 x 2048: one per block
    assert (z[:512, :512] == world.grid((512, 512), origin=(-4096, -4096))).all()
    print("world.zarr:", z.shape, z.chunks, z.dtype)
