// Package registry shapes (GitLab's Entities::Package, PackageVersion, PackageFile, Package::Pipeline) and the plan limits.
import { z } from 'zod'
import { PipelineBasic } from './pipelines.js'
import { UserBasic } from './users.js'

const int = z.number().int()

/** `Entities::Package::Pipeline`: a basic pipeline with the user who ran it. */
export const PackagePipeline = PipelineBasic.extend({ user: UserBasic.nullable() })

export const PackageVersion = z.object({
  id: int,
  version: z.string().nullable(),
  created_at: z.string(),
  tags: z.array(z.unknown()),
  pipeline: PackagePipeline.optional(),
})

export const Package = z.object({
  id: int,
  name: z.string(),
  version: z.string().nullable(),
  package_type: z.string(),
  status: z.string(),
  _links: z.object({ web_path: z.string().optional(), delete_api_path: z.string().optional() }),
  created_at: z.string(),
  last_downloaded_at: z.string().nullable(),
  /** Group lists only. */
  project_id: int.optional(),
  project_path: z.string().optional(),
  tags: z.array(z.unknown()),
  pipeline: PackagePipeline.optional(),
  /** Deprecated by GitLab 16: an empty array when the package has pipelines, absent otherwise. */
  pipelines: z.array(PackagePipeline).optional(),
  /** A single package's other versions. */
  versions: z.array(PackageVersion).optional(),
})
export type Package = z.infer<typeof Package>

export const PackageFile = z.object({
  id: int,
  package_id: int,
  created_at: z.string(),
  file_name: z.string(),
  size: int,
  file_md5: z.string().nullable(),
  file_sha1: z.string().nullable(),
  file_sha256: z.string().nullable(),
  pipelines: z.array(PackagePipeline).optional(),
})
export type PackageFile = z.infer<typeof PackageFile>

/** The package file record itself, as the generic upload answers with `select=package_file` (the model's JSON). */
export const PackageFileRecord = z.object({
  id: int,
  package_id: int,
  created_at: z.string(),
  updated_at: z.string(),
  size: int,
  file_store: int,
  file_md5: z.string().nullable(),
  file_sha1: z.string().nullable(),
  file_name: z.string(),
  file: z.object({ url: z.string() }),
  file_sha256: z.string().nullable(),
  verification_retry_at: z.null(),
  verified_at: z.null(),
  verification_failure: z.null(),
  verification_retry_count: z.null(),
  verification_checksum: z.null(),
  verification_state: int,
  verification_started_at: z.null(),
  status: z.string(),
  file_final_path: z.null(),
  project_id: int,
  new_file_path: z.null(),
})
export type PackageFileRecord = z.infer<typeof PackageFileRecord>

/** Grape's `created!`. */
export const CreatedMessage = z.object({ message: z.string() })

/** The limits of a plan this server enforces (GitLab's PlanLimits entity has many more, for features it lacks). */
export const PlanLimits = z.object({ generic_packages_max_file_size: int })
