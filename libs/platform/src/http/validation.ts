import { ValidationError, ValidationPipe, type ArgumentMetadata, type ValidationPipeOptions } from '@nestjs/common';
import { plainToInstance, TransformationType, type TransformFnParams } from 'class-transformer';
import { defaultOptions as transformerDefaults } from 'class-transformer/cjs/constants/default-options.constant.js';
import { defaultMetadataStorage as transformerMetadata } from 'class-transformer/cjs/storage.js';
import { getMetadataStorage, ValidateIf, ValidationTypes, type ValidationArguments } from 'class-validator';
import { InvalidParamError } from '../errors.js';
import { acceptedProperties, UnknownPropertyError } from './vocabulary.js';

const OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  stopAtFirstError: true,
  // The object an error was found in tells which properties it takes (UnknownPropertyError); it never leaves the factory.
  validationError: { target: true },
  exceptionFactory: (errors) => {
    const [field, constraint, error] = firstFailure(errors);
    // forbidNonWhitelisted: say what the request does take, and what was likely meant (docs/adr/0036).
    if (error?.constraints?.whitelistValidation && error.target) {
      return new UnknownPropertyError(error.property, field, acceptedProperties(error.target.constructor));
    }
    return new InvalidParamError(constraint ?? `${field} is invalid`, field);
  },
};

/**
 * class-validator at the edge (style.md): unknown fields are refused, values
 * are transformed to their DTO types, and the first failure becomes a 400
 * INVALID_PARAM naming the field, e.g. `field: "pings[3].lat"`.
 *
 * Query strings of flat DTOs take a compiled path (`QueryPlan`, ADR 0028):
 * the same class-transformer instance and the very constraint validators
 * class-validator would run, without class-validator's per-request metadata
 * search, which cost more than the rest of the validation. Only a pass is
 * decided there: anything that fails, or anything the plan does not cover,
 * goes through the standard pipe, which produces the error exactly as before.
 */
export function createValidationPipe(): ValidationPipe {
  rememberValidationMetadata();
  return new CompiledQueryValidationPipe(OPTIONS);
}

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type TargetMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;

/**
 * class-validator looks up a class's rules on every object it validates: it
 * walks every class that has rules (hundreds here) to find the ones the object
 * inherits from, then groups the result by property. Decorators are all
 * applied when the modules load, so both lookups are remembered per class
 * (and options) and forgotten whenever a rule is added. Issue 49's profile:
 * the walk was the largest single cost of a JSON body's validation
 * (`POST /v2/route`). The answers are the library's own, computed once.
 */
function rememberValidationMetadata(): void {
  const storage = getMetadataStorage() as MetadataStorage & { [REMEMBERED]?: true };
  if (storage[REMEMBERED]) return;
  storage[REMEMBERED] = true;
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addValidation = storage.addValidationMetadata.bind(storage);
  let byTarget = new Map<Function | string, Map<string, TargetMetadata>>();
  let grouped = new WeakMap<TargetMetadata, ReturnType<MetadataStorage['groupByPropertyName']>>();
  storage.addValidationMetadata = (metadata) => {
    byTarget = new Map();
    grouped = new WeakMap();
    addValidation(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const options = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let forTarget = byTarget.get(target);
    if (!forTarget) byTarget.set(target, (forTarget = new Map()));
    let found = forTarget.get(options);
    if (!found) forTarget.set(options, (found = lookUp(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
}

const REMEMBERED = Symbol.for('location-api.class-validator-remembered');

function firstFailure(errors: ValidationError[], parent = ''): [string, string | undefined, ValidationError?] {
  const error = errors[0];
  if (!error) return [parent || 'body', undefined];
  const field = parent ? (/^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
  if (error.constraints) {
    const [message] = Object.values(error.constraints);
    return [field, message, error];
  }
  return firstFailure(error.children ?? [], field);
}

type Check = (entity: object, value: unknown) => boolean;

interface PropertyPlan {
  name: string;
  /** @IsOptional and the like: all must hold, or the property is not validated. */
  conditions: Array<(entity: object, value: unknown) => boolean>;
  /** The property's constraint validators, synchronous, in class-validator's order. */
  checks: Check[];
}

/** A DTO class class-validator would validate with custom and conditional constraints only, on top-level properties. */
export interface QueryPlan {
  properties: PropertyPlan[];
  allowed: Set<string>;
  /** The DTO instance of a query of allowed keys and string values, as class-transformer's plainToInstance builds it. */
  instantiate: (query: Record<string, unknown>) => object;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The plan of `metatype`, or undefined when class-validator would do anything
 * the plan does not (nested objects, promises, `each`, groups, contexts,
 * @IsDefined, @Allow, asynchronous constraints, an instance field without
 * rules, accessors or methods on the class): such classes keep the standard path.
 */
export function compileQueryPlan(metatype: new () => object): QueryPlan | undefined {
  const storage = getMetadataStorage();
  // As class-validator looks them up for a pipe without groups (ValidationExecutor.execute). The cast cannot go:
  // its typings declare targetSchema a string, but its own executor passes undefined when there is no schema.
  const metadatas = storage.getTargetValidationMetadatas(metatype, undefined as unknown as string, false, false, undefined);
  if (metadatas.length === 0) return undefined;
  if (Object.getOwnPropertyNames(metatype.prototype).some((name) => name !== 'constructor')) return undefined;
  const grouped = storage.groupByPropertyName(metadatas);
  const properties: PropertyPlan[] = [];
  for (const [name, group] of Object.entries(grouped)) {
    if (UNSAFE_KEYS.has(name)) return undefined;
    const plan: PropertyPlan = { name, conditions: [], checks: [] };
    for (const metadata of group) {
      if (metadata.each || metadata.context || (metadata.groups && metadata.groups.length > 0) || metadata.always) return undefined;
      if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        plan.conditions.push(metadata.constraints[0] as (entity: object, value: unknown) => boolean);
      } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
        const validateIf = (metadata as { validateIf?: (entity: object, value: unknown) => boolean }).validateIf;
        for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
          if (constraint.async) return undefined;
          const instance = constraint.instance as { validate: (value: unknown, args: ValidationArguments) => unknown };
          plan.checks.push((entity, value) => {
            if (validateIf && !validateIf(entity, value)) return true;
            const valid = instance.validate(value, { targetName: metatype.name, property: metadata.propertyName, object: entity, value, constraints: metadata.constraints });
            // class-validator's test is `!valid`; a promise is not a pass here: the standard path awaits it.
            return Boolean(valid) && typeof (valid as { then?: unknown }).then !== 'function';
          });
        }
      } else {
        return undefined;
      }
    }
    properties.push(plan);
  }
  const allowed = new Set(properties.map((property) => property.name));
  // class-validator's whitelist looks at every own key of the instance, declared fields included.
  if (Object.keys(new metatype()).some((key) => !allowed.has(key))) return undefined;
  return { properties, allowed, instantiate: compileInstantiation(metatype, allowed) };
}

type TransformFn = (params: TransformFnParams) => unknown;

/**
 * What plainToInstance(metatype, query) does for a query whose keys are all in
 * `allowed` and whose values are all strings (passQuery's precondition), when
 * the class uses no @Type, @Expose or @Exclude: a new instance, then each key
 * of the query in order, its string unchanged by the untyped conversion, put
 * through the property's @Transform functions (those without groups, in
 * class-transformer's order, with the arguments it passes) and assigned. The
 * transforms are looked up once here rather than in the metadata storage on
 * every request. Any other class keeps plainToInstance itself. The
 * differential spec (validation.spec.ts) compares the two on every DTO shape.
 */
function compileInstantiation(metatype: new () => object, allowed: ReadonlySet<string>): (query: Record<string, unknown>) => object {
  const standard = (query: Record<string, unknown>) => plainToInstance(metatype, query) as object;
  if (transformerMetadata.getStrategy(metatype) !== 'none') return standard;
  if (transformerMetadata.getExposedProperties(metatype, TransformationType.PLAIN_TO_CLASS).length > 0) return standard;
  if (transformerMetadata.getExcludedProperties(metatype, TransformationType.PLAIN_TO_CLASS).length > 0) return standard;
  // class-transformer skips a key whose instance value is a function.
  if (Object.values(new metatype()).some((value) => typeof value === 'function')) return standard;
  const transforms = new Map<string, TransformFn[]>();
  for (const name of allowed) {
    if (transformerMetadata.findTypeMetadata(metatype, name) || transformerMetadata.findExposeMetadata(metatype, name) || transformerMetadata.findExcludeMetadata(metatype, name)) return standard;
    const found = transformerMetadata
      .findTransformMetadatas(metatype, name, TransformationType.PLAIN_TO_CLASS)
      .filter((metadata) => !metadata.options || !metadata.options.groups || !metadata.options.groups.length)
      .map((metadata) => metadata.transformFn as TransformFn);
    transforms.set(name, found);
  }
  return (query) => {
    // The options object plainToInstance hands its transforms: the defaults, copied per call as it does.
    const options = { ...transformerDefaults };
    const entity = new metatype() as Record<string, unknown>;
    for (const key of Object.keys(query)) {
      let value = query[key];
      for (const transform of transforms.get(key)!) value = transform({ value, key, obj: query, type: TransformationType.PLAIN_TO_CLASS, options });
      entity[key] = value;
    }
    return entity;
  };
}

/**
 * The query's instance of the DTO when the plan passes it, else undefined
 * (then the standard pipe decides, and words the error).
 */
export function passQuery(plan: QueryPlan, metatype: new () => object, query: Record<string, unknown>): object | undefined {
  for (const key of Object.keys(query)) {
    const value = query[key];
    // An unknown key is refused by the whitelist; arrays (a repeated parameter) and anything not a string go the standard way.
    if (!plan.allowed.has(key) || typeof value !== 'string') return undefined;
  }
  const entity = plan.instantiate(query) as Record<string, unknown>;
  if (entity.constructor !== metatype) return undefined;
  for (const property of plan.properties) {
    const value = entity[property.name];
    let validate = true;
    for (const condition of property.conditions) validate = condition(entity, value) && validate;
    if (!validate) continue;
    for (const check of property.checks) if (!check(entity, value)) return undefined;
  }
  return entity;
}

/**
 * For a body field that may be left out but, when sent, must hold a value:
 * `null` is validated like any other value (and refused by the field's type
 * rule), where @IsOptional would let it through as absent and a handler
 * testing `=== undefined` would take it as given (issue 31: `{"loan_ids":
 * null}` was a 500).
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** 400 INVALID_PARAM: the body is JSON but not an object (null, an array, a string, a number, a boolean). */
export class BodyNotAnObjectError extends InvalidParamError {
  constructor(value: unknown) {
    super(`request body must be a JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`, 'body');
  }
}

class CompiledQueryValidationPipe extends ValidationPipe {
  private readonly plans = new Map<Function, QueryPlan | null>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype as (new () => object) | undefined;
    // Nest's pipe turns a null body into {} and would walk an array of thousands of objects before refusing it
    // (issue 31, items 1 and 5): a DTO body of any other top-level type is refused before any transform. An
    // absent body (undefined) stays as it was: the DTO's own rules decide.
    if (metadata.type === 'body' && typeof metatype === 'function' && isDtoClass(metatype) && value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new BodyNotAnObjectError(value);
    }
    if (metadata.type === 'query' && typeof metatype === 'function' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      let plan = this.plans.get(metatype);
      if (plan === undefined) {
        plan = isDtoClass(metatype) ? (compileQueryPlan(metatype) ?? null) : null;
        this.plans.set(metatype, plan);
      }
      if (plan) {
        const passed = passQuery(plan, metatype, value as Record<string, unknown>);
        if (passed) return passed;
      }
    }
    return super.transform(value, metadata);
  }
}

const BUILT_IN: ReadonlySet<Function> = new Set([String, Boolean, Number, Array, Object, Buffer, Date]);

function isDtoClass(metatype: Function): metatype is new () => object {
  return !BUILT_IN.has(metatype) && metatype.prototype !== undefined;
}
