import type { Locator } from 'playwright-core'
import { expect } from 'vitest'

/** A box on the page in CSS pixels, by its edges. */
export interface Box {
  readonly left: number
  readonly top: number
  readonly right: number
  readonly bottom: number
}

/** The part of `grid` a clerk sees: its box less its borders and scroll bars, with how far it is scrolled. */
export async function gridViewport(grid: Locator): Promise<Box & { readonly scrollLeft: number }> {
  return grid.evaluate((element) => {
    const rect = element.getBoundingClientRect()
    const left = rect.left + element.clientLeft
    const top = rect.top + element.clientTop
    return {
      left,
      top,
      right: left + element.clientWidth,
      bottom: top + element.clientHeight,
      scrollLeft: element.scrollLeft,
    }
  })
}

/** The box `locator` is laid out in (it must be on the page). */
export async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox()
  expect(box).not.toBeNull()
  return { left: box!.x, top: box!.y, right: box!.x + box!.width, bottom: box!.y + box!.height }
}
