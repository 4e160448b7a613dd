// Entities::GroupLabel: a label as a group's lists show it, without the project-only priority and is_project_label.
import type { GroupLabel } from '../../contract/endpoints/group-labels.js'
import type { LabelCounts, LabelRow } from '../store/labels.js'
import { presentLabel } from './issues.js'

export function presentGroupLabel(l: LabelRow, counts: LabelCounts, subscribed: boolean): GroupLabel {
  const { priority: _priority, is_project_label: _isProjectLabel, ...rest } = presentLabel(l, counts, subscribed)
  return rest
}
